package ai.lango.security;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The caller's identity from what they present ("Authorization: Bearer …" on HTTP, the auth
 * frame's token on /ws): the operator's lango.auth.token, a user's API token, or a JWT of the
 * configured identity provider. With none of those configured Lango is a single-operator server,
 * and every caller is the operator. A credential that lasts (a /ws socket) is checked again:
 * an API token until it is revoked or reissued, a JWT until its expiry.
 */
@ApplicationScoped
public class Credentials {

    @Inject
    LangoSettings.Access access;

    @Inject
    UserTokenStore users;

    private volatile JwtVerifier jwt;
    /** The JWT users' names this server has seen claimed (lango_jwt_users), so that a request asks no database. */
    private final Set<String> claimedByJwt = ConcurrentHashMap.newKeySet();

    /**
     * A credential that was accepted: who it names, and what ends it — the stored hash of an issued
     * API token (revoked or reissued: gone), the expiry of a JWT; neither for the operator's token.
     */
    public record Presented(Identity identity, Optional<String> tokenHash, Optional<Instant> expires) {

        static Presented lasting(Identity identity) {
            return new Presented(identity, Optional.empty(), Optional.empty());
        }
    }

    /** Whether callers must show a credential at all. */
    public boolean required() {
        return access.authenticates();
    }

    /** Who presents {@code credential}; empty when it names nobody (and one is required). */
    public Optional<Identity> identify(String credential) {
        return authenticate(credential).map(Presented::identity);
    }

    /** The accepted credential {@code credential} is, with what ends it; empty when it names nobody. */
    public Optional<Presented> authenticate(String credential) {
        if (!required()) {
            return Optional.of(Presented.lasting(Identity.OPERATOR));
        }
        if (credential == null || credential.isBlank()) {
            return Optional.empty();
        }
        String presented = credential.strip();
        if (access.token().filter(token -> MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8))).isPresent()) {
            return Optional.of(Presented.lasting(Identity.OPERATOR));
        }
        Optional<Identity> user = users.identify(presented);
        if (user.isPresent()) {
            return Optional.of(new Presented(user.get(), Optional.of(UserTokenStore.hash(presented)), Optional.empty()));
        }
        return access.jwt().flatMap(settings -> verifier(settings).verify(presented)
                .filter(verified -> settings.linkTokenUsers() || ownName(verified.identity().userId()))
                .map(verified -> new Presented(verified.identity(), Optional.empty(), Optional.of(verified.expires()))));
    }

    /**
     * Whether a JWT user may use the name {@code userId}: not when a user with an issued API token has
     * it (one name, one user: the JWT would otherwise get that user's sessions and data).
     */
    private boolean ownName(String userId) {
        if (claimedByJwt.contains(userId)) {
            return true;
        }
        boolean claimed;
        try {
            claimed = users.claimForJwt(userId);
        } catch (RuntimeException raced) {
            claimed = users.claimForJwt(userId); // another server noted the same name at the same moment
        }
        if (!claimed) {
            MaskedLogs.of(Credentials.class).info(() -> "a JWT for the user \"" + userId + "\" was refused: that name is a"
                    + " user's with an issued API token (lango.auth.jwt.link-token-users=true makes them one person)");
            return false;
        }
        claimedByJwt.add(userId);
        return true;
    }

    /** Whether a name is a JWT user's, so that no API token may be issued for it (unless they are linked). */
    public boolean nameOfJwtUser(String userId) {
        return access.jwt().filter(settings -> !settings.linkTokenUsers()).isPresent() && users.usedByJwt(userId);
    }

    /** Whether {@code credential} still holds now: its token not revoked or reissued, its JWT not expired. */
    public boolean stillValid(Presented credential) {
        if (credential.expires().filter(expires -> !Instant.now().isBefore(expires)).isPresent()) {
            return false;
        }
        return credential.tokenHash().map(hash -> users.stillIssued(Set.of(hash)).contains(hash)).orElse(true);
    }

    /** Of these API tokens' hashes, the ones still issued. */
    public Set<String> stillIssued(Collection<String> tokenHashes) {
        return users.stillIssued(tokenHashes);
    }

    /** Who an "Authorization: Bearer …" header names. */
    public Optional<Identity> fromAuthorization(String header) {
        if (!required()) {
            return Optional.of(Identity.OPERATOR);
        }
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return identify(header.substring(7));
    }

    private JwtVerifier verifier(LangoSettings.Jwt settings) {
        JwtVerifier current = jwt;
        if (current == null) {
            current = new JwtVerifier(settings);
            jwt = current;
        }
        return current;
    }
}
