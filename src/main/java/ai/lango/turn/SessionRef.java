package ai.lango.turn;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Which session: its app, its user and the id the client chose. Session ids belong to their user:
 * two users may each have a session "default", and neither can read, run, delete or learn of the
 * other's.
 */
public record SessionRef(String appName, String userId, String key) {

    public SessionRef {
        Objects.requireNonNull(appName, "appName");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(key, "key");
    }

    /** A session of the one app this server runs. */
    public static SessionRef of(String userId, String key) {
        return new SessionRef(Names.APP, userId, key);
    }

    /**
     * One short string that tells this session from every other (its app, user and id, hashed to
     * 32 hex characters): what server-wide locks, leases, vectors and graph nodes are keyed by,
     * where the three ids together would not fit a column.
     */
    public String scope() {
        return hash(appName, userId, key);
    }

    /**
     * The scope of what a user owns beyond a session (their own knowledge and learnings, with their
     * vectors and graph triples): like a session's, 32 hex characters, never equal to one.
     */
    public static String ownerScope(String userId) {
        return hash("owner", Objects.requireNonNull(userId, "userId"));
    }

    private static String hash(String... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            // Length-prefixed, so no two lists of parts (a session's three, an owner's two) hash the same text.
            for (String part : parts) {
                sha.update((part.length() + ":" + part).getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** How logs and error messages name it: the user's id and the session's. */
    @Override
    public String toString() {
        return "session \"" + key + "\" of user \"" + userId + "\"";
    }
}
