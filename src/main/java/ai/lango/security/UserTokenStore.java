package ai.lango.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The API tokens an administrator issues: one per user, shown once when issued, stored as its
 * SHA-256 (a token is 32 random bytes, so no salt or slow hash is needed to keep it from being
 * guessed), compared in constant time, revoked by deleting the user. Shared by every server of a
 * PostgreSQL database.
 */
@ApplicationScoped
@Transactional
public class UserTokenStore {

    /** What an issued token starts with, so a leaked one is recognisable. */
    static final String PREFIX = "lango_";
    /** The start of a revoked user's token hash (a colon: never in a hash, which is hex). */
    private static final String REVOKED = "revoked:";
    private static final SecureRandom RANDOM = new SecureRandom();

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** A user as the admin API lists them: never the token. */
    public record User(String userId, boolean admin, Instant createdAt) {
    }

    /** Issues (or reissues, revoking the old one) {@code userId}'s token; the token is returned once and never again. */
    public String issue(String userId, boolean admin) {
        String token = newToken();
        UserEntity existing = em.find(UserEntity.class, userId);
        if (existing != null) {
            em.remove(existing);
            em.flush();
        }
        em.persist(new UserEntity(userId, hash(token), admin, Instant.now()));
        return token;
    }

    /** Whether a JWT user has used the name {@code userId} (its data is then that user's). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public boolean usedByJwt(String userId) {
        return em.find(JwtUserEntity.class, userId) != null;
    }

    /**
     * Notes that a JWT user uses the name {@code userId}, unless a user with an issued token has it;
     * whether the JWT user may use it.
     */
    public boolean claimForJwt(String userId) {
        if (em.find(UserEntity.class, userId) != null) {
            return false;
        }
        if (em.find(JwtUserEntity.class, userId) == null) {
            em.persist(new JwtUserEntity(userId, System.currentTimeMillis()));
        }
        return true;
    }

    /** Of these token hashes, the ones that still name a user (the others were revoked or reissued). */
    @Transactional(Transactional.TxType.SUPPORTS)
    public java.util.Set<String> stillIssued(java.util.Collection<String> hashes) {
        if (hashes.isEmpty()) {
            return java.util.Set.of();
        }
        return java.util.Set.copyOf(em.createQuery("SELECT u.tokenHash FROM UserEntity u WHERE u.tokenHash IN :h", String.class)
                .setParameter("h", java.util.List.copyOf(hashes)).getResultList());
    }

    private static String newToken() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** The users whose token holds now (a revoked user is not listed: their name stays reserved). */
    public List<User> list() {
        return em.createQuery("SELECT u FROM UserEntity u WHERE u.tokenHash NOT LIKE :revoked ORDER BY u.userId", UserEntity.class)
                .setParameter("revoked", REVOKED + "%").getResultList().stream()
                .map(u -> new User(u.userId(), u.admin(), u.createdAt())).toList();
    }

    /**
     * Revokes the user's token; false when there was none. The user's row stays, its token replaced by a
     * mark no token hashes to: the name stays a token user's, so a JWT of the same name does not get
     * their sessions and data (a new token for the name is issued as before).
     */
    public boolean revoke(String userId) {
        return em.createQuery("UPDATE UserEntity u SET u.tokenHash = :revoked WHERE u.userId = :id AND u.tokenHash <> :revoked")
                .setParameter("id", userId).setParameter("revoked", revokedMark(userId)).executeUpdate() > 0;
    }

    /** What a revoked user's token hash becomes: unique per user (the column is), and never a SHA-256 in hex. */
    private static String revokedMark(String userId) {
        return REVOKED + userId;
    }

    /** Whose token this is, if it is one that was issued. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<Identity> identify(String token) {
        if (token == null || !token.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String presented = hash(token);
        return em.createQuery("SELECT u FROM UserEntity u WHERE u.tokenHash = :hash", UserEntity.class)
                .setParameter("hash", presented).getResultList().stream()
                .filter(u -> MessageDigest.isEqual(u.tokenHash().getBytes(StandardCharsets.US_ASCII),
                        presented.getBytes(StandardCharsets.US_ASCII)))
                .findFirst().map(u -> Identity.user(u.userId(), u.admin()));
    }

    /** The stored form of a token: its SHA-256, in hex. */
    public static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
