package ai.lango.api.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP sessions of this server's /mcp: who opened each (a session is its user's alone), the
 * protocol version agreed, whether the client takes requests for input (elicitation), and the
 * answers the server waits for from it. Kept in memory: a session this server does not know (a
 * restart, another server of a cluster) is 404, and the client starts a new one, as the protocol
 * says. Sessions unused for {@link #IDLE} are forgotten.
 */
@ApplicationScoped
public class McpSessions {

    static final Duration IDLE = Duration.ofHours(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One session. */
    static final class Session {
        final String id;
        final String userId;
        final String protocol;
        final boolean elicitation;
        final Map<String, CompletableFuture<JsonNode>> awaiting = new ConcurrentHashMap<>();
        volatile String logLevel = "info";
        volatile Instant used = Instant.now();

        Session(String id, String userId, String protocol, boolean elicitation) {
            this.id = id;
            this.userId = userId;
            this.protocol = protocol;
            this.elicitation = elicitation;
        }
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    Session open(String userId, String protocol, boolean elicitation) {
        forgetIdle();
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        Session session = new Session(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), userId, protocol, elicitation);
        sessions.put(session.id, session);
        return session;
    }

    /** The session {@code id} of {@code userId}; empty for another user's (as unknown as a made-up id). */
    Optional<Session> of(String id, String userId) {
        Session session = id == null ? null : sessions.get(id);
        if (session == null || !session.userId.equals(userId)) {
            return Optional.empty();
        }
        session.used = Instant.now();
        return Optional.of(session);
    }

    boolean close(String id, String userId) {
        return of(id, userId).map(session -> {
            sessions.remove(session.id);
            session.awaiting.values().forEach(answer -> answer.cancel(false));
            return true;
        }).orElse(false);
    }

    private void forgetIdle() {
        Instant before = Instant.now().minus(IDLE);
        sessions.values().removeIf(session -> session.used.isBefore(before));
    }
}
