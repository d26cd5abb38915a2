package ai.lango.adk.sessions;

import ai.lango.config.LangoSettings;
import ai.lango.provider.ProviderCatalog;
import ai.lango.session.HistoryTruncation;
import ai.lango.session.Message;
import ai.lango.session.Roles;
import ai.lango.session.SessionStore;
import ai.lango.session.SessionTitles;
import ai.lango.session.StateDelta;
import ai.lango.session.StoredSession;
import ai.lango.session.ToolCall;
import ai.lango.session.TurnRecord;
import ai.lango.session.TurnRows;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnContext;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.GetSessionConfig;
import com.google.adk.sessions.ListEventsResponse;
import com.google.adk.sessions.ListSessionsResponse;
import com.google.adk.sessions.Session;
import com.google.adk.sessions.State;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * ADK's session service over the JPA {@link SessionStore}: a sibling of ADK's
 * InMemorySessionService that survives restarts. Every appended event is durable (one transaction)
 * before the in-memory session is updated; the runner's view of a session is its history cut to
 * the token budget, read newest-first only as far as the budget needs.
 */
@ApplicationScoped
public class JpaSessionService implements BaseSessionService {

    private static final java.util.logging.Logger LOG = ai.lango.masking.MaskedLogs.of(JpaSessionService.class);

    private SessionStore store;
    private int tokenBudget;
    /** lango.agent.compaction.enabled: whether a turn whose history would not fit is compacted first. */
    private boolean compacting;
    /** The durable turns' rows: a resumed turn's run checks that its turn is still to be resumed. */
    @Inject
    TurnRows turnRows;
    private volatile String rootAgentName = Names.SINGLE_AGENT;

    protected JpaSessionService() {
        // for CDI proxies
    }

    @Inject
    public JpaSessionService(SessionStore store, LangoSettings settings) {
        this.store = store;
        this.compacting = settings.agent().compaction().enabled();
        // Model-family budget (or the configured one), the same for every session.
        this.tokenBudget = HistoryTruncation.budget(settings.sessions().tokenBudget(),
                ProviderCatalog.historyBudget(settings.model().name().orElse(null)));
    }

    /** The token budget each session's history view is cut to. */
    public int tokenBudget() {
        return tokenBudget;
    }

    /** The agent that answers when a stored message names none (set when the agent tree is built). */
    public void rootAgentName(String name) {
        this.rootAgentName = name == null || name.isBlank() ? Names.SINGLE_AGENT : name;
    }

    @Override
    public Single<Session> createSession(String appName, String userId,
                                         ConcurrentMap<String, Object> state, String sessionId) {
        return Single.fromCallable(() -> {
            String id = sessionId == null || sessionId.isBlank() ? UUID.randomUUID().toString() : sessionId.trim();
            SessionRef key = new SessionRef(appName, userId, id);
            StateDelta initial = StateScopes.split(state == null ? Map.of() : state);
            StoredSession created = store.create(key, withoutRemovals(initial.session()));
            if (!initial.app().isEmpty() || !initial.user().isEmpty()) {
                store.append(key, null, new StateDelta(Map.of(), initial.app(), initial.user()), created.updatedAt());
            }
            return toSession(created, List.of());
        });
    }

    /**
     * The session for the runner, created when unknown (Lango's rule: a run on a new id starts a
     * conversation). Without a config its events are the history cut to the token budget; with one,
     * its numRecentEvents and afterTimestamp filters apply. Ids are the user's own: another user's
     * session under the same id is another session.
     */
    @Override
    public Maybe<Session> getSession(String appName, String userId, String sessionId,
                                     Optional<GetSessionConfig> config) {
        return Maybe.fromCallable(() -> {
            boolean filtered = config.filter(c -> c.numRecentEvents().isPresent() || c.afterTimestamp().isPresent())
                    .isPresent();
            SessionRef key = new SessionRef(appName, userId, sessionId);
            if (!filtered) {
                SessionStore.View view = store.open(key, tokenBudget);
                Map<String, Object> state = view.session().state();
                return toSession(view.session(), forModel(key, current(view.history(), state), state), view.appState(),
                        view.userState());
            }
            StoredSession stored = store.getOrCreate(key);
            GetSessionConfig filters = config.get();
            List<Message> messages = store.messages(key, filters.numRecentEvents().orElse(0),
                    filters.afterTimestamp().orElse(null));
            return toSession(stored, new EventsView(current(messages, stored.state()), rootAgentName));
        });
    }

    /**
     * The session for a turn's run (which holds the session's lease): as {@link #getSession}, but when the budget would
     * cut off events no compaction covers — the history jumped past the budget since the last background pass, a big
     * tool result say — the oldest part is folded first, synchronously with a bounded wait ({@link
     * HistoryCompactor#compactNow}), and the view read again. When that does not make it fit (nothing to fold, the
     * summarizer failed or took too long) the request is cut to the budget as without compaction, for this request
     * only, and the log says so once.
     */
    Maybe<Session> turnSession(String appName, String userId, String sessionId) {
        return Maybe.fromCallable(() -> {
            SessionRef key = new SessionRef(appName, userId, sessionId);
            SessionStore.View view = store.open(key, tokenBudget);
            HistoryCompactor folding = compacting ? compactor() : null; // off: cutting to the budget is the rule
            if (folding != null && cutsUnfolded(key, view) && folding.compactNow(key)) {
                view = store.open(key, tokenBudget); // measured again: no decision on the size before the fold
            }
            if (folding != null && cutsUnfolded(key, view)) {
                // INFO the first time for a session, FINE while it goes on (a summarizer backing off, a huge kept turn)
                boolean first = cutSaid.size() < MAX_CUT_SAID ? cutSaid.add(key) : !cutSaid.contains(key);
                LOG.log(first ? java.util.logging.Level.INFO : java.util.logging.Level.FINE, "a session's history does not"
                        + " fit the token budget and could not be compacted in time; this request carries its newest part"
                        + " only (cut to the budget)");
            } else if (folding != null) {
                cutSaid.remove(key);
            }
            Map<String, Object> state = view.session().state();
            return toSession(view.session(), forModel(key, current(view.history(), state), state), view.appState(),
                    view.userState());
        });
    }

    /** Sessions whose requests were cut although compaction is on, since they last fitted (each said once at INFO). */
    private final java.util.Set<SessionRef> cutSaid = ConcurrentHashMap.newKeySet();
    private static final int MAX_CUT_SAID = 10_000;

    /** The compactor of the synchronous pass (null: none, as in tests of this class alone). */
    HistoryCompactor compactor;

    @Inject
    jakarta.enterprise.inject.Instance<HistoryCompactor> compactors;

    private HistoryCompactor compactor() {
        if (compactor == null && compactors != null && compactors.isResolvable()) {
            compactor = compactors.get();
        }
        return compactor;
    }

    /**
     * Whether the budget cut off of {@code view} an event no compaction covers: one the model would not see. The
     * newest message cut is the one to look at (older ones are older still); a compaction itself is no loss.
     */
    boolean cutsUnfolded(SessionRef key, SessionStore.View view) {
        Message newestCut = null;
        List<Message> cut = current(view.cut(), view.session().state()); // what a retry superseded is no loss either
        for (int i = cut.size() - 1; i >= 0 && newestCut == null; i--) {
            if (!Roles.COMPACTION.equals(cut.get(i).role())) {
                newestCut = cut.get(i);
            }
        }
        if (newestCut == null) {
            return false;
        }
        Optional<Message> compaction = newest(view.history(), Roles.COMPACTION).or(() -> newest(view.cut(), Roles.COMPACTION))
                .or(() -> Boolean.TRUE.equals(view.session().state().get(COMPACTED_STATE)) ? store.newestCompaction(key)
                        : Optional.empty());
        long foldedUntil = compaction.flatMap(c -> CompactedHistory.newest(EventMessages.toEvents(List.of(c), rootAgentName)))
                .map(com.google.adk.events.EventCompaction::endTimestamp).orElse(Long.MIN_VALUE);
        return newestCut.timestamp().toEpochMilli() > foldedUntil;
    }

    private static Optional<Message> newest(List<Message> messages, String role) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (role.equals(messages.get(i).role())) {
                return Optional.of(messages.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The runner's events of a history cut to the budget: with a compaction (in the window, or else the session's
     * newest), its summary and the events after its range; orphaned calls closed (see {@link CompactedHistory}).
     */
    private List<Event> forModel(SessionRef key, List<Message> history, Map<String, Object> state) {
        boolean compacted = history.stream().anyMatch(m -> Roles.COMPACTION.equals(m.role()));
        // a session never compacted (its state says so) costs no query
        Optional<Message> older = compacted || !Boolean.TRUE.equals(state.get(COMPACTED_STATE)) ? Optional.empty()
                : store.newestCompaction(key);
        if (older.isEmpty() && !compacted && history.stream().noneMatch(Message::hasToolCalls)) {
            return new EventsView(history, rootAgentName); // nothing to fold or close: converted lazily, once
        }
        List<Message> messages = history;
        if (older.isPresent()) {
            messages = new java.util.ArrayList<>(history.size() + 1);
            messages.add(older.get());
            messages.addAll(history);
        }
        return new java.util.ArrayList<>(CompactedHistory.forModel(EventMessages.toEvents(messages, rootAgentName)));
    }

    /** The events the model's next request would carry (the history view the runner gets). */
    List<Event> modelEvents(SessionRef key) {
        // The view the next turn would open: kept between turns where this server is the database's only writer, so
        // compaction's check after every turn reads nothing (reading the history was 15% of a turn's CPU under load).
        Optional<SessionStore.View> view = store.peek(key, tokenBudget);
        if (view.isEmpty()) {
            return List.of();
        }
        Map<String, Object> state = view.get().session().state();
        return forModel(key, current(view.get().history(), state), state);
    }

    /** Every stored event of the session but what a retry superseded, oldest first: what a compaction may fold. */
    List<Event> currentEvents(SessionRef key) {
        Optional<StoredSession> stored = store.find(key);
        return stored.isEmpty() ? List.of()
                : EventMessages.toEvents(current(store.messages(key), stored.get().state()), rootAgentName);
    }

    /** The agent that answers when a stored message names none. */
    String rootAgentName() {
        return rootAgentName;
    }

    /**
     * Stores a compaction the server made (see {@link HistoryCompactor}): only the server writes them, so one sent by
     * a client is refused in {@link #append}.
     */
    void appendCompaction(SessionRef key, Event compaction) {
        Message message = EventMessages.toMessage(compaction).orElseThrow();
        store.append(key, message, new StateDelta(Map.of(COMPACTED_STATE, true), Map.of(), Map.of()),
                Instant.ofEpochMilli(compaction.timestamp()));
    }

    /** A stored session with every event, for readers (the HTTP API): never creates one. */
    public Optional<Session> readSession(String appName, String userId, String sessionId) {
        SessionRef key = new SessionRef(appName, userId, sessionId);
        return store.find(key).map(s -> toSession(s, EventMessages.toEvents(store.messages(key), rootAgentName)));
    }

    @Override
    public Single<ListSessionsResponse> listSessions(String appName, String userId) {
        return Single.fromCallable(() -> ListSessionsResponse.builder()
                .sessions(store.list(appName, userId).stream().map(s -> toSession(s, List.of())).toList())
                .build());
    }

    @Override
    public Completable deleteSession(String appName, String userId, String sessionId) {
        return Completable.fromAction(() -> {
            store.delete(new SessionRef(appName, userId, sessionId));
        });
    }

    @Override
    public Single<ListEventsResponse> listEvents(String appName, String userId, String sessionId) {
        return Single.fromCallable(() -> {
            SessionRef key = new SessionRef(appName, userId, sessionId);
            boolean known = store.find(key).isPresent();
            List<Event> events = known ? EventMessages.toEvents(store.messages(key), rootAgentName) : List.of();
            return ListEventsResponse.builder().events(events).build();
        });
    }

    /**
     * Persists the event (its message and state changes in one transaction), then applies it to the
     * in-memory session as ADK's default does. Partial events are never stored; an event with only
     * a state delta changes state but adds no message; an event with neither is a no-op.
     *
     * <p>In a turn's run ({@link #forTurn}) the user's message that starts the run is the exception: its
     * commit is started and the run goes on (the model is called) while it commits. Whoever sends the run's
     * events to a client waits first ({@link TurnSessions#awaitInput}), and so does every later write of the
     * run: nothing of the answer is sent, and nothing after the message is stored, before the message is.
     */
    @Override
    public Single<Event> appendEvent(Session session, Event event) {
        return append(session, event, null);
    }

    /** This service as one run of {@code turn} writes through it (what an ADK runner of the turn is given). */
    public TurnSessions forTurn(TurnContext turn) {
        return new TurnSessions(this, turn.meter(), null, false);
    }

    /**
     * The same, the run's user message carrying {@code begin} (its turn runs, on this server, from now), or — for a
     * resumed turn — not stored at all, as its question is already.
     */
    public TurnSessions forTurn(TurnContext turn, TurnRecord.Begin begin) {
        return new TurnSessions(this, turn.meter(), begin, turn.begins() == TurnContext.Begins.RESUMED);
    }

    /** Whether the resumed turn {@code begin} begins is still to be resumed (see {@link TurnRows#resuming}). */
    boolean resuming(TurnRecord.Begin begin) {
        return turnRows != null && turnRows.resuming(begin);
    }

    /**
     * Appends for {@code run} (null: a write outside a turn's run, which commits at once): a run's user message
     * commits while the model is called, and the usage of the model calls an answer carries commits with it.
     */
    Single<Event> append(Session session, Event event, TurnSessions run) {
        if (event.partial().orElse(false)) {
            return Single.just(event);
        }
        if (CompactedHistory.isCompaction(event)) {
            // a compaction hides the events of its range from the model: a client's would be an erase-and-inject
            return Single.error(new IllegalArgumentException(COMPACTION_REFUSED));
        }
        return Single.fromCallable(() -> {
            if (event.author() == null || event.author().isBlank()) {
                event.setAuthor(authorForRole(event));
            }
            Optional<Message> message = EventMessages.toMessage(event);
            Map<String, Object> adkDelta = event.actions() == null ? Map.of() : event.actions().stateDelta();
            adkDelta = withTitle(session, message, adkDelta);
            StateDelta delta = StateScopes.split(adkDelta);
            if (message.isEmpty() && delta.isEmpty()) {
                return event;
            }
            Instant when = Instant.ofEpochMilli(event.timestamp());
            SessionRef key = new SessionRef(session.appName(), session.userId(), session.id());
            if (message.isPresent() && Roles.USER.equals(event.author()) && run != null) {
                run.settleInput(); // an earlier run's message, whose failure was that run's
                run.committing(store.appendSoon(key, message.get(), delta, when, run.takeBegin()));
            } else {
                if (run != null) {
                    run.awaitInput();
                }
                // The usage of the model calls this event answers commits with it (nothing to drain for a tool's event).
                List<ai.lango.turn.ModelCall> usage = message.isPresent() && run != null ? run.drainUsage() : List.of();
                if (usage.isEmpty()) {
                    store.append(key, message.orElse(null), delta, when);
                } else {
                    store.append(key, message.orElse(null), delta, when, usage);
                }
            }
            StateScopes.applyTo(session.state(), adkDelta);
            if (message.isPresent()) {
                session.events().add(event);
            }
            session.lastUpdateTime(when);
            return event;
        });
    }

    /** Waits for a message in commit, whatever became of it. */
    void settle(CompletableFuture<Void> input) {
        try {
            await(input);
        } catch (RuntimeException e) {
            // that run failed with it
        }
    }

    /** Returns once {@code input} is committed; throws when it could not be. */
    void await(CompletableFuture<Void> input) {
        if (input == null) {
            return;
        }
        try {
            store.awaitSoon(input);
            input.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** A session without a title is named after its first user message (in the same transaction as the message). */
    private static Map<String, Object> withTitle(Session session, Optional<Message> message, Map<String, Object> adkDelta) {
        if (session.state().containsKey(SessionTitles.KEY) || message.filter(m -> Roles.USER.equals(m.role())).isEmpty()) {
            return adkDelta;
        }
        Optional<String> title = SessionTitles.ofMessage(message.get().content());
        if (title.isEmpty()) {
            return adkDelta;
        }
        Map<String, Object> delta = new HashMap<>(adkDelta);
        delta.put(SessionTitles.KEY, title.get());
        return delta;
    }

    /**
     * Ends a turn that was cut off: each of its tool calls still without a result gets one saying
     * it was interrupted (the call is stored before its tool runs, so every tool that ran is in the
     * history, with how it ended), then what the answer streaming when it was cut had written ({@code cutShort}, when
     * it had), then the error that ended the turn.
     */
    public void endCutTurn(SessionRef session, Optional<Event> cutShort, Event error) {
        List<Message> recent = store.messages(session, CUT_TURN_WINDOW, null);
        Map<String, ToolCall> open = new LinkedHashMap<>();
        for (Message message : recent) {
            if (Roles.USER.equals(message.role())) {
                open.clear(); // an earlier turn's calls are that turn's business
            }
            for (ToolCall call : message.toolCalls()) {
                if (call.input() != null) {
                    open.put(call.id(), call);
                } else {
                    open.remove(call.id());
                }
            }
        }
        Instant now = Instant.ofEpochMilli(error.timestamp());
        if (!open.isEmpty()) {
            List<Part> results = open.values().stream().map(call -> Part.builder().functionResponse(FunctionResponse.builder()
                    .id(call.id()).name(call.name()).response(Map.of("error", "interrupted: " + error.errorMessage().orElse("")))
                    .build()).build()).toList();
            Event interrupted = Event.builder().id(Event.generateEventId()).invocationId(error.invocationId()).author(error.author())
                    .content(Content.builder().role(Roles.USER).parts(results).build()).actions(EventActions.builder().build())
                    .timestamp(now.toEpochMilli()).build();
            EventMessages.toMessage(interrupted).ifPresent(m -> store.append(session, m, StateDelta.NONE, now));
        }
        cutShort.flatMap(EventMessages::toMessage).ifPresent(m -> store.append(session, m, StateDelta.NONE, now));
        appendError(session, error);
    }

    /** The session's newest {@code count} events, oldest first (none when the session is gone). */
    public List<Event> recentEvents(SessionRef session, int count) {
        if (store.find(session).isEmpty()) {
            return List.of();
        }
        return EventMessages.toEvents(store.messages(session, count, null), rootAgentName);
    }

    /** Stores events of a turn outside its runs (what a resumed turn asks a person), each committed when this returns. */
    public void appendEvents(SessionRef session, List<Event> events) {
        for (Event event : events) {
            EventMessages.toMessage(event).ifPresent(message -> store.append(session, message, StateDelta.NONE,
                    Instant.ofEpochMilli(event.timestamp())));
        }
    }

    /**
     * Session state: the turns a retry replaced, as {@code [from, to]} ranges of their messages' times (epoch
     * milliseconds), from the question to the last message that answered it. They stay stored (readers see them, and
     * may show them as superseded); the model no longer reads them.
     */
    public static final String SUPERSEDED = "lango:superseded";

    /**
     * The session's last question and everything after it (its answer, tool calls, how it ended) become superseded: a
     * retry asks the question again in their place. Nothing happens unless the last question is {@code question} (a
     * retry of a question that was refused before it was stored replaces nothing).
     */
    public void supersedeLastTurn(SessionRef session, String question) {
        Optional<StoredSession> stored = store.find(session);
        if (stored.isEmpty()) {
            return;
        }
        List<Message> recent = store.messages(session, CUT_TURN_WINDOW, null);
        for (int i = recent.size() - 1; i >= 0; i--) {
            Message asked = recent.get(i);
            if (Roles.USER.equals(Roles.normalize(asked.role())) && !asked.content().isBlank()) {
                if (!asked.content().endsWith(question)) { // (a note on superseded approvals may come before it)
                    return;
                }
                List<Object> ranges = new java.util.ArrayList<>(stored.get().state().get(SUPERSEDED) instanceof List<?> known
                        ? known : List.of());
                ranges.add(List.of(asked.timestamp().toEpochMilli(), recent.get(recent.size() - 1).timestamp().toEpochMilli()));
                // its last update stays as it was: the retry's question, stored next, is the session's news
                store.append(session, null, new StateDelta(Map.of(SUPERSEDED, ranges), Map.of(), Map.of()),
                        stored.get().updatedAt());
                return;
            }
        }
    }

    /** The messages a retry did not supersede: what the model reads. */
    static List<Message> current(List<Message> messages, Map<String, Object> state) {
        if (!(state.get(SUPERSEDED) instanceof List<?> ranges) || ranges.isEmpty()) {
            return messages;
        }
        return messages.stream().filter(m -> ranges.stream().noneMatch(r -> r instanceof List<?> range && range.size() == 2
                && range.get(0) instanceof Number from && range.get(1) instanceof Number to
                && m.timestamp().toEpochMilli() >= from.longValue() && m.timestamp().toEpochMilli() <= to.longValue())).toList();
    }

    /** The session state that says a session holds a compaction (so one out of the history's window is looked up). */
    public static final String COMPACTED_STATE = "lango:compacted";

    /** Why a client's compaction event is refused. */
    public static final String COMPACTION_REFUSED = "compaction events are written by the server only";

    /** How far back a cut turn's calls are looked for: one turn's worth of messages. */
    static final int CUT_TURN_WINDOW = 100;

    /** Renames the session; false when it does not exist. */
    public boolean rename(SessionRef session, String title) {
        Optional<StoredSession> found = store.find(session);
        if (found.isEmpty()) {
            return false;
        }
        // its last update stays that of its last message: a renamed chat keeps its place in its user's list
        store.append(session, null, new StateDelta(Map.of(SessionTitles.KEY, title), Map.of(), Map.of()),
                found.get().updatedAt());
        return true;
    }

    /**
     * Stores the error that ended a turn which could not finish (the server stopped), so that a
     * reader of the session later sees how the turn ended. Never read by a model: it has no content.
     */
    public void appendError(SessionRef session, Event error) {
        store.append(session, EventMessages.errorMessage(error), StateDelta.NONE, Instant.ofEpochMilli(error.timestamp()));
    }

    /** A missing author is filled in from the content's role, so no stored row lacks one. */
    private String authorForRole(Event event) {
        boolean fromUser = event.content().flatMap(c -> c.role()).map(Roles.USER::equals).orElse(false)
                && event.functionResponses().isEmpty();
        return fromUser ? Roles.USER : rootAgentName;
    }

    private Session toSession(StoredSession stored, List<Event> events) {
        return toSession(stored, events, store.appState(stored.appName()), store.userState(stored.appName(), stored.userId()));
    }

    /** An ADK session: its own state plus the shared app: and user: state under their prefixes. */
    private static Session toSession(StoredSession stored, List<Event> events, Map<String, Object> appState,
                                     Map<String, Object> userState) {
        Map<String, Object> state = new HashMap<>(stored.state());
        appState.forEach((k, v) -> state.put(State.APP_PREFIX + k, v));
        userState.forEach((k, v) -> state.put(State.USER_PREFIX + k, v));
        state.values().removeIf(v -> v == null); // JSON null means absent; ADK's state map refuses nulls
        return Session.builder(stored.key())
                .appName(stored.appName())
                .userId(stored.userId())
                .state(new ConcurrentHashMap<>(state))
                .events(events)
                .lastUpdateTime(stored.updatedAt())
                .build();
    }

    private static Map<String, Object> withoutRemovals(Map<String, Object> state) {
        Map<String, Object> kept = new HashMap<>(state);
        kept.values().removeIf(v -> v == StateDelta.REMOVED);
        return kept;
    }
}
