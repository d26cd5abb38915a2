package ai.lango.memory;

import ai.lango.session.SessionStore;
import ai.lango.session.TokenEstimator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The durable memory of sessions: observations and reflections, found by session key. Writes that
 * race another server (two observers on the same messages, two reflectors on the same
 * observations) leave exactly one result; the loser is told, not failed.
 */
@ApplicationScoped
public class MemoryStore {

    private static final Logger LOG = Logger.getLogger(MemoryStore.class.getName());

    @Inject
    SessionStore sessions;

    @Inject
    MemoryRows rows;

    /** A session's memory: everything stored (folded items included, marked), oldest first. */
    public record Contents(List<Observation> observations, List<Reflection> reflections) {
        public static final Contents EMPTY = new Contents(List.of(), List.of());
    }

    /** Tokens offered to the model now (observations, reflections) and waiting to be observed (messages). */
    public record Status(int observationTokens, int reflectionTokens, long unobservedTokens) {
    }

    /** The session's status; empty for an unknown session. */
    public Optional<Status> status(String sessionKey) {
        return sessions.id(sessionKey).map(id -> {
            Contents active = active(id);
            return new Status(active.observations().stream().mapToInt(Observation::tokens).sum(),
                    active.reflections().stream().mapToInt(Reflection::tokens).sum(),
                    sessions.tokensAfter(id, rows.lastObservedMessageId(id)));
        });
    }

    /** Everything the session's memory holds; empty for an unknown session. */
    public Contents all(String sessionKey) {
        return sessions.id(sessionKey)
                .map(id -> new Contents(rows.observations(id, true), rows.reflections(id, true)))
                .orElse(Contents.EMPTY);
    }

    /** What is offered to the model: the observations and reflections not folded into another, oldest first. */
    public Contents active(String sessionKey) {
        return sessions.id(sessionKey).map(this::active).orElse(Contents.EMPTY);
    }

    Contents active(long sessionId) {
        return new Contents(rows.observations(sessionId, false), rows.reflections(sessionId, false));
    }

    long lastObservedMessageId(long sessionId) {
        return rows.lastObservedMessageId(sessionId);
    }

    /** Stores an observation of messages {@code first} to {@code last}; false when another server observed them first. */
    boolean observe(long sessionId, String content, long first, long last) {
        try {
            rows.insertObservation(sessionId, content, TokenEstimator.estimate(content), first, last);
            return true;
        } catch (RuntimeException e) {
            if (rows.lastObservedMessageId(sessionId) >= first) {
                LOG.fine(() -> "messages " + first + "-" + last + " were observed by another server");
                return false;
            }
            throw e;
        }
    }

    /** Stores a reflection folding these items; false when another server folded any of them first. */
    boolean fold(long sessionId, String content, int generation, List<Long> observationIds, List<Long> reflectionIds) {
        try {
            rows.fold(sessionId, content, TokenEstimator.estimate(content), generation, observationIds, reflectionIds);
            return true;
        } catch (RuntimeException e) {
            if (causedBy(e, MemoryRows.LostRace.class)) {
                LOG.fine(() -> "memory of session " + sessionId + " was folded by another server: " + e.getMessage());
                return false;
            }
            throw e;
        }
    }

    /** Forgets what the session remembers (its messages stay); false for an unknown session. */
    public boolean clear(String sessionKey) {
        Optional<Long> id = sessions.id(sessionKey);
        id.ifPresent(rows::clear);
        return id.isPresent();
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
