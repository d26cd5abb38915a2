package ai.lango.memory;

import ai.lango.masking.MaskedLogs;
import ai.lango.retrieval.Document;
import ai.lango.retrieval.Retrieval;
import ai.lango.session.SessionStore;
import ai.lango.session.TokenEstimator;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The durable memory of sessions: observations and reflections, found by their session. Writes that
 * race another server (two observers on the same messages, two reflectors on the same
 * observations) leave exactly one result; the loser is told, not failed.
 */
@ApplicationScoped
public class MemoryStore {

    private static final Logger LOG = MaskedLogs.of(MemoryStore.class);

    @Inject
    SessionStore sessions;

    @Inject
    MemoryRows rows;

    @Inject
    Retrieval retrieval;

    @Inject
    Event<ObservationSaved> observationSaved;

    @Inject
    Event<ReflectionSaved> reflectionSaved;

    @Inject
    Event<MemoryCleared> cleared;

    /** A session's memory: everything stored (folded items included, marked), oldest first. */
    public record Contents(List<Observation> observations, List<Reflection> reflections) {
        public static final Contents EMPTY = new Contents(List.of(), List.of());
    }

    /** Tokens offered to the model now (observations, reflections) and waiting to be observed (messages). */
    public record Status(int observationTokens, int reflectionTokens, long unobservedTokens) {
    }

    /** The session's status; empty for an unknown session. */
    public Optional<Status> status(SessionRef session) {
        return sessions.id(session).map(id -> {
            Contents active = active(id);
            return new Status(active.observations().stream().mapToInt(Observation::tokens).sum(),
                    active.reflections().stream().mapToInt(Reflection::tokens).sum(),
                    sessions.tokensAfter(id, rows.lastObservedMessageId(id)));
        });
    }

    /** Everything the session's memory holds; empty for an unknown session. */
    public Contents all(SessionRef session) {
        return sessions.id(session)
                .map(id -> new Contents(rows.observations(id, true), rows.reflections(id, true)))
                .orElse(Contents.EMPTY);
    }

    /** What is offered to the model: the observations and reflections not folded into another, oldest first. */
    public Contents active(SessionRef session) {
        return sessions.id(session).map(this::active).orElse(Contents.EMPTY);
    }

    Contents active(long sessionId) {
        return new Contents(rows.observations(sessionId, false), rows.reflections(sessionId, false));
    }

    long lastObservedMessageId(long sessionId) {
        return rows.lastObservedMessageId(sessionId);
    }

    /** Stores an observation of messages {@code first} to {@code last}; false when another server observed them first. */
    boolean observe(long sessionId, SessionRef session, String content, long first, long last) {
        try {
            Observation stored = rows.insertObservation(sessionId, content, TokenEstimator.estimate(content), first, last);
            retrieval.index(new Document(Document.OBSERVATION, Long.toString(stored.id()), session.scope(), content));
            observationSaved.fire(new ObservationSaved(stored.id(), session, rows.observationBefore(sessionId, stored.id()),
                    content));
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
    boolean fold(long sessionId, SessionRef session, String content, int generation, List<Long> observationIds,
                 List<Long> reflectionIds) {
        try {
            Reflection stored = rows.fold(sessionId, content, TokenEstimator.estimate(content), generation, observationIds,
                    reflectionIds);
            retrieval.index(new Document(Document.REFLECTION, Long.toString(stored.id()), session.scope(), content));
            reflectionSaved.fire(new ReflectionSaved(stored.id(), session, observationIds, reflectionIds, content));
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
    public boolean clear(SessionRef session) {
        Optional<Long> id = sessions.id(session);
        id.ifPresent(rows::clear);
        forgotten(session);
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

    void sessionDeleted(@jakarta.enterprise.event.Observes ai.lango.session.SessionDeleted deleted) {
        forgotten(deleted.session());
    }

    /** What derives from the session's memory (its vectors, its graph links) goes: after a clear, or with the session. */
    public void forgotten(SessionRef session) {
        retrieval.removeSession(session);
        cleared.fire(new MemoryCleared(session));
    }

    /** Every observation and reflection of every session, as documents for retrieval. */
    public List<Document> documents(String collection) {
        return rows.documents(collection);
    }
}
