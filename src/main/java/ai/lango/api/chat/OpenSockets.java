package ai.lango.api.chat;

import ai.lango.masking.MaskedLogs;
import ai.lango.security.Credentials;
import ai.lango.security.TokenRevoked;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The authenticated /ws sockets of this server, by user, with the credential each was opened with.
 * A credential ends when it ends: a revoked or reissued API token closes its sockets at once here
 * ({@link TokenRevoked}) and within {@link #SWEEP} on every other server of a cluster (the stored
 * hashes are looked at again), a JWT's socket closes at its expiry. A closing socket is told why
 * ({@code auth.revoked}) before it closes (1008).
 */
@ApplicationScoped
public class OpenSockets {

    /** How often the sockets' credentials are looked at again: the most another server's revocation takes. */
    static final Duration SWEEP = Duration.ofSeconds(2);

    private static final Logger LOG = MaskedLogs.of(OpenSockets.class);

    @Inject
    Credentials credentials;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    /** One open socket: whose turns it runs, the credential it showed, and whether that ended. */
    private record Open(String userId, Credentials.Presented credential, boolean ended) {
    }

    private final Map<Session, Open> open = new ConcurrentHashMap<>();
    private ScheduledFuture<?> sweep;

    @PostConstruct
    void start() {
        sweep = scheduler.scheduleWithFixedDelay(this::sweep, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    /** A socket authenticated as {@code userId} with {@code credential}; a JWT's closes at its expiry. */
    void opened(Session socket, String userId, Credentials.Presented credential) {
        open.put(socket, new Open(userId, credential, false));
        credential.expires().ifPresent(expires -> scheduler.schedule(() -> end(socket, "the JWT expired at " + expires), Math.max(0, Duration.between(Instant.now(), expires).toMillis()), TimeUnit.MILLISECONDS));
    }

    void closed(Session socket) {
        open.remove(socket);
    }

    /** The open sockets of {@code userId} on this server. */
    List<Session> of(String userId) {
        return open.entrySet().stream().filter(e -> !e.getValue().ended() && e.getValue().userId().equals(userId))
                .map(Map.Entry::getKey).toList();
    }

    /** Whether the socket's credential still holds; if not, the socket is told and closed. A closed socket's never does. */
    boolean stillValid(Session socket) {
        Open entry = open.get(socket);
        if (entry == null || entry.ended()) {
            return false;
        }
        if (credentials.stillValid(entry.credential())) {
            return true;
        }
        end(socket, ended(entry.credential()));
        return false;
    }

    /** A token of {@code revoked}'s user was revoked or replaced here: their sockets opened with it close now. */
    void revoked(@Observes TokenRevoked revoked) {
        closeRevoked(open.entrySet().stream().filter(e -> !e.getValue().ended() && e.getValue().userId().equals(revoked.userId()))
                .toList());
    }

    /** Every socket whose credential ended (here or on another server) is closed. */
    void sweep() {
        try {
            closeRevoked(open.entrySet().stream().filter(e -> !e.getValue().ended()).toList());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "checking the sockets' credentials failed: " + e.getMessage(), e);
        }
    }

    private void closeRevoked(List<Map.Entry<Session, Open>> sockets) {
        Set<String> hashes = ConcurrentHashMap.newKeySet();
        sockets.forEach(e -> e.getValue().credential().tokenHash().ifPresent(hashes::add));
        Set<String> issued = hashes.isEmpty() ? Set.of() : credentials.stillIssued(hashes);
        Instant now = Instant.now();
        for (Map.Entry<Session, Open> entry : sockets) {
            Credentials.Presented credential = entry.getValue().credential();
            boolean revoked = credential.tokenHash().filter(hash -> !issued.contains(hash)).isPresent();
            boolean expired = credential.expires().filter(expires -> !now.isBefore(expires)).isPresent();
            if (revoked || expired) {
                end(entry.getKey(), ended(credential));
            }
        }
    }

    private static String ended(Credentials.Presented credential) {
        return credential.expires().isPresent() ? "the JWT expired" : "the API token was revoked or replaced";
    }

    /** Tells the socket its credential ended, then closes it; it runs no more turns. */
    private void end(Session socket, String why) {
        Open entry = open.get(socket);
        if (entry == null || entry.ended() || !open.replace(socket, entry, new Open(entry.userId(), entry.credential(), true))) {
            return;
        }
        LOG.info(() -> "closing a /ws connection: " + why);
        ChatFrames.send(socket, ChatFrames.event("auth.revoked", ChatFrames.payloadOf("reason", why + "; authenticate again")));
        FrameOutbox.closeAfterQueued(socket, new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "credential ended"));
    }
}
