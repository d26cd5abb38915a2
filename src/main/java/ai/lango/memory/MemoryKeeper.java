package ai.lango.memory;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.session.SessionStore;
import ai.lango.turn.SessionRef;
import ai.lango.turn.AfterTurnWork;
import ai.lango.turn.TurnCompleted;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The observer, the reflector and meta-reflection, run after each turn off the request path: as
 * long as a threshold is reached, the memory model compresses what reached it. A failed model call
 * is logged and leaves everything as it was, so the next turn's trigger tries again; the turn
 * itself never hears of it.
 *
 * <p>The work runs on a few threads of its own, never on the container's shared executor: a memory
 * model call takes as long as a turn's, and on the shared pool many of them at once delayed the
 * users' turns (measured with the load benchmark). Triggers for a session already waiting are
 * merged into the one waiting.
 */
@ApplicationScoped
public class MemoryKeeper {

    private static final Logger LOG = MaskedLogs.of(MemoryKeeper.class);

    /** Messages read at most for one observation; the observer stops taking them at the threshold anyway. */
    static final int MAX_MESSAGES = 500;
    /** Steps (observations, reflections) one trigger may take, so a long backlog is worked off in bounded bites. */
    static final int MAX_STEPS = 20;

    @Inject
    LangoSettings.Memory settings;

    @Inject
    SessionStore sessions;

    @Inject
    MemoryStore store;

    @Inject
    MemoryModel model;

    /** Threads that call the memory model: memory may fall behind under load, the users' turns may not. */
    static final int WORKERS = 2;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    /** Sessions this server is compressing now: a second trigger for one of them has nothing to add. */
    private final Set<SessionRef> busy = ConcurrentHashMap.newKeySet();
    private AfterTurnWork work;

    @PostConstruct
    void start() {
        work = new AfterTurnWork(WORKERS, threadFactory);
    }

    @PreDestroy
    void stop() {
        work.stop();
    }

    void afterTurn(@ObservesAsync TurnCompleted turn) {
        if (settings.enabled()) {
            work.submit(turn.session(), this::keep);
        }
    }

    /** What one call did: observations and reflections written. */
    public record Work(int observations, int reflections) {
        static final Work NONE = new Work(0, 0);
    }

    /** Observes, reflects and consolidates the session's memory as far as the thresholds ask. */
    public Work keep(SessionRef session) {
        if (!busy.add(session)) {
            return Work.NONE;
        }
        try {
            Optional<Long> sessionId = sessions.id(session);
            return sessionId.isEmpty() ? Work.NONE : keep(session, sessionId.get());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "memory of " + session + " not updated, tried again after the next turn: "
                    + e.getMessage(), LOG.isLoggable(Level.FINE) ? e : null);
            return Work.NONE;
        } finally {
            busy.remove(session);
        }
    }

    private Work keep(SessionRef session, long sessionId) {
        MemoryTriggers triggers = MemoryTriggers.of(settings);
        int observations = 0;
        int reflections = 0;
        for (int step = 0; step < MAX_STEPS; step++) {
            if (observe(session, sessionId, triggers)) {
                observations++;
            } else if (reflect(session, sessionId, triggers)) {
                reflections++;
            } else if (metaReflect(session, sessionId, triggers)) {
                reflections++;
            } else {
                break;
            }
        }
        return new Work(observations, reflections);
    }

    /** The messages after the last observed one, compressed into one observation once they reach the threshold. */
    private boolean observe(SessionRef session, long sessionId, MemoryTriggers triggers) {
        long last = store.lastObservedMessageId(sessionId);
        if (!triggers.observe((int) Math.min(Integer.MAX_VALUE, sessions.tokensAfter(sessionId, last)))) {
            return false;
        }
        List<SessionStore.Numbered> batch = new ArrayList<>();
        int tokens = 0;
        for (SessionStore.Numbered message : sessions.messagesAfter(sessionId, last, MAX_MESSAGES)) {
            batch.add(message);
            tokens += message.tokens();
            if (triggers.observe(tokens)) {
                break;
            }
        }
        String observation = model.complete(MemoryPrompts.OBSERVER,
                MemoryPrompts.messages(batch.stream().map(SessionStore.Numbered::message).toList()), session, "observer");
        long first = batch.get(0).id();
        long end = batch.get(batch.size() - 1).id();
        if (store.observe(sessionId, session, observation, first, end)) {
            LOG.info(() -> "memory: " + session + " observed, messages " + first + " to " + end);
        }
        return true;
    }

    /** The observations not yet reflected, folded into a reflection of generation 1 once they reach the threshold. */
    private boolean reflect(SessionRef session, long sessionId, MemoryTriggers triggers) {
        List<Observation> observations = store.active(sessionId).observations();
        if (!triggers.reflect(observations.stream().mapToInt(Observation::tokens).sum())) {
            return false;
        }
        String reflection = model.complete(MemoryPrompts.REFLECTOR,
                MemoryPrompts.observations(observations.stream().map(Observation::content).toList()), session, "reflector");
        if (store.fold(sessionId, session, reflection, 1, observations.stream().map(Observation::id).toList(), List.of())) {
            LOG.info(() -> "memory: " + session + " reflected " + observations.size() + " observations");
        }
        return true;
    }

    /** The session's reflections consolidated into one of the next generation once there are enough of them. */
    private boolean metaReflect(SessionRef session, long sessionId, MemoryTriggers triggers) {
        List<Reflection> reflections = store.active(sessionId).reflections();
        if (!triggers.metaReflect(reflections.size())) {
            return false;
        }
        int generation = reflections.stream().mapToInt(Reflection::generation).max().orElse(0) + 1;
        String consolidated = model.complete(MemoryPrompts.REFLECTOR, MemoryPrompts.reflections(reflections.stream()
                .map(r -> new MemoryPrompts.Generation(r.content(), r.generation())).toList()), session, "reflector");
        if (store.fold(sessionId, session, consolidated, generation, List.of(), reflections.stream().map(Reflection::id).toList())) {
            LOG.info(() -> "memory: " + session + " consolidated " + reflections.size()
                    + " reflections into generation " + generation);
        }
        return true;
    }
}
