package ai.lango.adk.sessions;

import ai.lango.session.Roles;
import ai.lango.session.TurnRecord;
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
 * run's user message commits while the model is called, with the write of its turn's row (the turn runs, here), and
 * every later write of the run waits for it; the usage the turn's model calls made commits with the event of the
 * answer that carries it. A run that resumes a turn after a crash stores no input: its question is stored already,
 * and the model is asked again from the session as it stands. Everything else is {@link JpaSessionService}'s.
 */
public final class TurnSessions implements BaseSessionService {

    private final JpaSessionService sessions;
    private final TurnMeter meter;
    /** What the run's user message writes of its turn, until it is written (null: nothing, or written). */
    private volatile TurnRecord.Begin begin;
    /** Whether the run's input is one stored already (a resumed turn's), which is not stored again. */
    private volatile boolean inputStored;
    /** The run's user message in commit, until it is awaited. */
    private volatile CompletableFuture<Void> input;

    TurnSessions(JpaSessionService sessions, TurnMeter meter, TurnRecord.Begin begin, boolean inputStored) {
        this.sessions = sessions;
        this.meter = meter;
        this.begin = begin;
        this.inputStored = inputStored;
    }

    @Override
    public Single<Session> createSession(String appName, String userId, ConcurrentMap<String, Object> state, String sessionId) {
        return sessions.createSession(appName, userId, state, sessionId);
    }

    @Override
    public Maybe<Session> getSession(String appName, String userId, String sessionId, Optional<GetSessionConfig> config) {
        if (config.isEmpty()) { // the run's own view: the run holds the session, so a fold it needs may be made now
            return sessions.turnSession(appName, userId, sessionId);
        }
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
        if (inputStored && Roles.USER.equals(event.author()) && !event.partial().orElse(false)) {
            inputStored = false;
            // a resumed run's question, in the session already; the run goes on if, now that it holds the session, its
            // turn is still to be resumed
            TurnRecord.Begin resumed = takeBegin();
            return Single.fromCallable(() -> {
                if (resumed != null && !sessions.resuming(resumed)) {
                    throw new ai.lango.turn.TurnSupersededException();
                }
                return event;
            });
        }
        return sessions.append(session, event, this);
    }

    /** The turn write the run's user message carries (once). */
    TurnRecord.Begin takeBegin() {
        TurnRecord.Begin taken = begin;
        begin = null;
        return taken;
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
