package ai.lango.adk.sessions;

import ai.lango.turn.ModelCall;
import ai.lango.turn.TurnMeter;
import com.google.adk.events.Event;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListEventsResponse;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;

/**
 * The session service as one run of a turn writes through it (the ADK runner of that run is given it): the
 * run's user message commits while the model is called and every later write of the run waits for it, and the
 * usage the turn's model calls made commits with the event of the answer that carries it. Everything else is
 * {@link JpaSessionService}'s.
 */
public final class TurnSessions implements BaseSessionService {

    private final JpaSessionService sessions;
    private final TurnMeter meter;
    /** The run's user message in commit, until it is awaited. */
    private volatile CompletableFuture<Void> input;

    TurnSessions(JpaSessionService sessions, TurnMeter meter) {
        this.sessions = sessions;
        this.meter = meter;
    }

    @Override
    public Single<Session> createSession(String appName, String userId, ConcurrentMap<String, Object> state, String sessionId) {
        return sessions.createSession(appName, userId, state, sessionId);
    }

    @Override
    public Maybe<Session> getSession(String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
        return sessions.getSession(appName, userId, sessionId, config);
    }

    @Override
    public Single<ListSessionsResponse> listSessions(String appName, String userId) {
        return sessions.listSessions(appName, userId);
    }

    @Override
    public Completable deleteSession(String appName, String userId, String sessionId) {
        return sessions.deleteSession(appName, userId, sessionId);
    }

    @Override
    public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
        return sessions.listEvents(appName, userId, sessionId);
    }

    @Override
    public Single<Event> appendEvent(Session session, Event event) {
        return sessions.append(session, event, this);
    }

    /**
     * Returns once the run's user message is committed; throws when it could not be (the run must then fail, and
     * tell nobody anything of an answer).
     */
    public void awaitInput() {
        CompletableFuture<Void> committing = input;
        input = null;
        sessions.await(committing);
    }

    void committing(CompletableFuture<Void> message) {
        input = message;
    }

    /** Waits for an earlier message of the run in commit, whatever became of it. */
    void settleInput() {
        CompletableFuture<Void> committing = input;
        input = null;
        sessions.settle(committing);
    }

    List<ModelCall> drainUsage() {
        return meter.drain();
    }
}
