package ai.lango.adk.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.session.SessionLeases;
import ai.lango.turn.SessionRef;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When a session's history is folded into a summary, what the summarizer is shown, and what a failed summary leaves. */
class HistoryCompactorTest {

    private static final SessionRef S1 = SessionRef.of("user", "s1");

    private final JpaSessionServiceTest.RecordingStore store = new JpaSessionServiceTest.RecordingStore();
    private final LangoSettings settings = TestSettings.of(Path.of("/tmp/lango"), "lango.agent.token-budget", "400",
            "lango.agent.compaction.keep-recent-turns", "2");
    private final JpaSessionService service = new JpaSessionService(store, settings);
    private final HistoryCompactor compactor = new HistoryCompactor();
    private final AtomicInteger asked = new AtomicInteger();
    private long clock = 1;

    HistoryCompactorTest() {
        compactor.settings = settings;
        compactor.sessions = service;
        compactor.store = store;
        compactor.leases = new SessionLeases(settings);
        // summarises by echoing the user's lines it is shown, as the fake model of the integration test does
        compactor.summarizer = (session, instruction, input) -> {
            asked.incrementAndGet();
            return input.lines().filter(l -> l.startsWith("user: ") || !l.contains(":"))
                    .map(l -> l.length() > 60 ? l.substring(0, 60) : l).reduce("", (a, b) -> a + b + "\n");
        };
    }

    private void turn(Session session, String question) {
        for (Event event : List.of(event("user", "user", question), event("lango", "model", "x".repeat(400)))) {
            service.appendEvent(session, event).blockingGet();
        }
    }

    private Event event(String author, String role, String text) {
        return Event.builder().id("e" + clock).invocationId("i").author(author).timestamp(clock++)
                .content(Content.builder().role(role).parts(List.of(Part.fromText(text))).build())
                .actions(EventActions.builder().build()).build();
    }

    private List<String> modelTexts() {
        return service.getSession("lango", "user", "s1", Optional.empty()).blockingGet().events().stream()
                .map(CompactedHistoryTest::text).toList();
    }

    @Test
    void aHistoryPastTheThresholdIsFoldedOnceIntoASummaryThatKeepsTheFirstTurnsFact() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        turn(session, "remember the code word ALBATROSS");
        assertEquals(HistoryCompactor.Outcome.FITS, compactor.compact(S1));
        for (int i = 2; i <= 4; i++) {
            turn(session, "question " + i);
        }
        assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1));
        List<String> texts = modelTexts();
        assertTrue(texts.get(0).startsWith(CompactedHistory.SUMMARY_HEADER) && texts.get(0).contains("ALBATROSS"), texts.get(0));
        assertFalse(texts.stream().skip(1).anyMatch(t -> t.contains("ALBATROSS")), "the first turn's own text is folded");
        assertEquals(List.of("question 3", "question 4"), texts.stream().filter(t -> t.startsWith("question")).toList(),
                "the newest two turns are kept whole");
        assertEquals(9, store.messages.get(S1).size(), "the eight events stay, the compaction is one more");
        assertEquals(1, asked.get());
        assertTrue(CompactedHistory.problems(service.modelEvents(S1)).isEmpty());

        // right after, the history fits again: no second pass on a stale size
        assertEquals(HistoryCompactor.Outcome.FITS, compactor.compact(S1));
        assertEquals(1, asked.get());
    }

    @Test
    void aCallWhoseResultACrashLostIsClosedWithAnErrorStoredAndDoesNotBlockCompaction() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        service.appendEvent(session, event("user", "user", "remember the code word ALBATROSS and list the files"))
                .blockingGet();
        // the call was stored, then the server died while its tool ran: no result, no approval, and not the newest turn
        Event lost = Event.builder().id("e" + clock).invocationId("i").author("lango").timestamp(clock++)
                .content(Content.builder().role("model").parts(List.of(Part.builder().functionCall(
                        com.google.genai.types.FunctionCall.builder().id("call-lost").name("exec")
                                .args(java.util.Map.of("command", "ls")).build()).build())).build())
                .actions(EventActions.builder().build()).build();
        service.appendEvent(session, lost).blockingGet();
        for (int i = 2; i <= 5; i++) {
            turn(session, "question " + i);
        }
        assertTrue(CompactedHistory.problems(service.modelEvents(S1)).isEmpty(),
                "before any compaction the model is sent the call closed: " + CompactedHistory.problems(service.modelEvents(S1)));

        assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1), "the orphan does not block the fold");
        List<ai.lango.session.Message> stored = store.messages.get(S1);
        List<ai.lango.session.ToolCall> results = stored.stream().flatMap(m -> m.toolCalls().stream())
                .filter(c -> "call-lost".equals(c.id()) && c.output() != null).toList();
        assertEquals(1, results.size(), "the lost call's synthetic result is stored once");
        assertTrue(results.get(0).output().contains(CompactedHistory.ORPHAN_ERROR), results.get(0).output());
        assertEquals(ai.lango.session.Roles.COMPACTION, stored.get(stored.size() - 1).role(), "stored before the compaction");
        com.google.adk.events.EventCompaction range = CompactedHistory.newest(service.currentEvents(S1)).orElseThrow();
        assertTrue(range.endTimestamp() >= lost.timestamp(), "the call's turn was folded");

        List<Event> sent = service.modelEvents(S1);
        assertTrue(CompactedHistory.problems(sent).isEmpty(), "every call the model sees has its result: "
                + CompactedHistory.problems(sent));
        assertFalse(sent.stream().anyMatch(e -> e.functionCalls().stream().anyMatch(c -> c.id().orElse("").equals("call-lost"))
                || e.functionResponses().stream().anyMatch(r -> r.id().orElse("").equals("call-lost"))),
                "neither the folded call nor its closing reaches the model");
        assertTrue(CompactedHistory.problems(service.currentEvents(S1)).isEmpty(),
                "the stored session itself has every call answered");

        for (int i = 6; i <= 9; i++) {
            turn(session, "question " + i);
        }
        assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1), "compaction goes on past it");
        assertEquals(1, store.messages.get(S1).stream().flatMap(m -> m.toolCalls().stream())
                .filter(c -> "call-lost".equals(c.id()) && c.output() != null).count(), "closed once, not at each fold");
        assertTrue(CompactedHistory.problems(service.modelEvents(S1)).isEmpty());
    }

    @Test
    void aFailingSummarizerStoresNothingAndSaysSo() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        for (int i = 1; i <= 4; i++) {
            turn(session, "question " + i);
        }
        compactor.summarizer = (s, instruction, input) -> {
            throw new IllegalStateException("the model answered nothing");
        };
        assertEquals(HistoryCompactor.Outcome.FAILED, compactor.compact(S1));
        assertEquals(8, store.messages.get(S1).size());
        assertTrue(modelTexts().contains("question 1"), "the history is as it was, cut to the budget by the store");
    }

    @Test
    void theSummarizerIsShownThePreviousSummaryAndEveryPartBounded() {
        String shown = HistoryCompactor.transcript("code word ALBATROSS", List.of(event("user", "user", "y".repeat(5000))));
        assertTrue(shown.startsWith("Previous summary:\ncode word ALBATROSS"));
        assertTrue(shown.length() < HistoryCompactor.PART_CHARS + 200, "one part is cut to " + HistoryCompactor.PART_CHARS);
    }

    /** The store as the database's is read: the newest messages that fit the budget, and what it cut off. */
    static final class TruncatingStore extends JpaSessionServiceTest.RecordingStore {
        @Override
        public View open(SessionRef key, int budget) {
            View whole = super.open(key, budget);
            List<ai.lango.session.Message> all = messages.get(key);
            List<ai.lango.session.Message> kept = ai.lango.session.HistoryTruncation.truncate(all, budget);
            return new View(whole.session(), kept, whole.appState(), whole.userState(),
                    all.subList(0, all.size() - kept.size()));
        }

        @Override
        public List<ai.lango.session.Message> history(SessionRef key, int budget) {
            return ai.lango.session.HistoryTruncation.truncate(messages.get(key), budget);
        }

        /** The session's own state changes kept too (what a retry superseded, that it was compacted). */
        @Override
        public void append(SessionRef key, ai.lango.session.Message message, ai.lango.session.StateDelta delta,
                           java.time.Instant when) {
            super.append(key, message, delta, when);
            if (!delta.session().isEmpty()) {
                ai.lango.session.StoredSession was = sessions.get(key);
                java.util.Map<String, Object> state = new java.util.HashMap<>(was.state());
                state.putAll(delta.session());
                sessions.put(key, new ai.lango.session.StoredSession(was.key(), was.appName(), was.userId(), state,
                        was.createdAt(), was.updatedAt()));
            }
        }
    }

    /** A compactor over a store that cuts to the budget, wired as the turn's session service uses it. */
    private JpaSessionService cutting(HistoryCompactor.Summarizer summarizer, String... more) {
        return compactorOverCuttingStore(summarizer, more).sessions;
    }

    private HistoryCompactor compactorOverCuttingStore(HistoryCompactor.Summarizer summarizer, String... more) {
        List<String> pairs = new java.util.ArrayList<>(List.of("lango.agent.token-budget", "400",
                "lango.agent.compaction.keep-recent-turns", "2"));
        pairs.addAll(List.of(more));
        LangoSettings configured = TestSettings.of(Path.of("/tmp/lango"), pairs.toArray(String[]::new));
        TruncatingStore cuts = new TruncatingStore();
        JpaSessionService turnService = new JpaSessionService(cuts, configured);
        HistoryCompactor synchronous = new HistoryCompactor();
        synchronous.settings = configured;
        synchronous.sessions = turnService;
        synchronous.store = cuts;
        synchronous.leases = new SessionLeases(configured);
        synchronous.summarizer = summarizer;
        turnService.compactor = synchronous;
        return synchronous;
    }

    private static final HistoryCompactor.Summarizer ECHO = (session, instruction, input) -> "SUMMARY: "
            + input.lines().filter(l -> l.contains("ALBATROSS")).findFirst().orElse("small talk");

    private void turn(JpaSessionService into, String question, int answerChars) {
        Session session = into.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        for (Event event : List.of(event("user", "user", question), event("lango", "model", "x".repeat(answerChars)))) {
            into.appendEvent(session, event).blockingGet();
        }
    }

    private static List<String> texts(Session session) {
        return session.events().stream().map(CompactedHistoryTest::text).toList();
    }

    @Test
    void aTurnWhoseHistoryWouldNotFitHasItsOldestPartFoldedBeforeTheModelIsCalled() {
        AtomicInteger summaries = new AtomicInteger();
        JpaSessionService turnService = cutting((s, i, input) -> {
            summaries.incrementAndGet();
            return ECHO.summarize(s, i, input);
        });
        turn(turnService, "remember the code word ALBATROSS", 400);
        turn(turnService, "question 2", 400);
        turn(turnService, "question 3", 400);
        turn(turnService, "question 4", 1000); // the history jumps past the budget in one turn

        List<String> texts = texts(turnService.turnSession("lango", "user", "s1").blockingGet());
        assertEquals(1, summaries.get(), "one synchronous pass");
        assertTrue(texts.get(0).startsWith(CompactedHistory.SUMMARY_HEADER) && texts.get(0).contains("ALBATROSS"),
                "the request opens with the summary, which keeps the first turn's fact: " + texts);
        assertEquals(List.of("question 3", "question 4"), texts.stream().filter(t -> t.startsWith("question")).toList(),
                "the newest two turns are kept whole, read again after the fold");

        // the next request fits: no second pass
        texts(turnService.turnSession("lango", "user", "s1").blockingGet());
        assertEquals(1, summaries.get());
    }

    @Test
    void aFoldThatDoesNotMakeTheRequestFitLeavesItCutToTheBudgetThatOnceAndSaysSoOnce() {
        AtomicInteger summaries = new AtomicInteger();
        JpaSessionService turnService = cutting((s, i, input) -> {
            summaries.incrementAndGet();
            return ECHO.summarize(s, i, input);
        });
        java.util.List<java.util.logging.LogRecord> said = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler listening = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getMessage() != null && record.getMessage().contains("does not fit")) {
                    said.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(JpaSessionService.class.getName());
        logger.addHandler(listening);
        try {
            turn(turnService, "remember the code word ALBATROSS", 800);
            turn(turnService, "question 2", 400);
            turn(turnService, "question 3", 2400); // the kept turn alone is past the budget: no fold makes it fit
            List<String> texts = texts(turnService.turnSession("lango", "user", "s1").blockingGet());
            assertEquals(1, summaries.get(), "one pass, no loop");
            assertEquals(1, said.size(), "said once");
            assertFalse(texts.contains("question 2"), "cut to the budget for this request: " + texts);
            turnService.turnSession("lango", "user", "s1").blockingGet();
            assertEquals(1, said.size(), "not said again at INFO for the same session's next request");
        } finally {
            logger.removeHandler(listening);
        }
    }

    @Test
    void aSummaryThatTakesLongerThanTheWaitLeavesTheRequestCutAndIsStoredWhenItEnds() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        JpaSessionService turnService = cutting((s, i, input) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ECHO.summarize(s, i, input);
        }, "lango.agent.compaction.wait", "PT0.2S");
        turn(turnService, "remember the code word ALBATROSS", 400);
        turn(turnService, "question 2", 400);
        turn(turnService, "question 3", 400);
        turn(turnService, "question 4", 1000);

        long started = System.nanoTime();
        List<String> texts = texts(turnService.turnSession("lango", "user", "s1").blockingGet());
        assertTrue(System.nanoTime() - started < 2_000_000_000L, "the turn waited about lango.agent.compaction.wait");
        assertFalse(texts.get(0).startsWith(CompactedHistory.SUMMARY_HEADER), "cut, not summarised: " + texts);
        release.countDown();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (texts.isEmpty() || !texts.get(0).startsWith(CompactedHistory.SUMMARY_HEADER)) {
            assertTrue(System.nanoTime() < deadline, "the late summary is stored for the next request");
            Thread.sleep(20);
            texts = texts(turnService.turnSession("lango", "user", "s1").blockingGet());
        }
    }

    private static ai.lango.turn.ModelCall reported(long input, long at) {
        return new ai.lango.turn.ModelCall("user", "s1", "lango", "openai", "m", ai.lango.turn.ModelCall.AGENT, input, 50, 0,
                false, java.math.BigDecimal.ZERO, java.time.Instant.ofEpochMilli(at));
    }

    @Test
    void theNextRequestIsMeasuredByTheLatestReportedPromptWithItsAnswer() {
        assertEquals(1_050, HistoryCompactor.nextRequestTokens(Optional.of(reported(1_000, 10)), 500, Optional::empty, () -> 7));
        assertEquals(1_050, HistoryCompactor.nextRequestTokens(Optional.of(reported(1_000, 10)), 500,
                () -> Optional.of(java.time.Instant.ofEpochMilli(5)), () -> 7), "a call after the newest compaction");
    }

    @Test
    void withoutAReportedCallTheHistoryIsEstimated() {
        assertEquals(7, HistoryCompactor.nextRequestTokens(Optional.empty(), 500, Optional::empty, () -> 7));
    }

    @Test
    void aCountReportedBeforeTheNewestCompactionIsStaleAndTheHistoryIsMeasuredAgain() {
        assertEquals(7, HistoryCompactor.nextRequestTokens(Optional.of(reported(1_000, 10)), 500,
                () -> Optional.of(java.time.Instant.ofEpochMilli(20)), () -> 7));
    }

    @Test
    void aReportedCountThatFitsIsTakenWithoutLookingForACompactionOrEstimating() {
        assertEquals(1_050, HistoryCompactor.nextRequestTokens(Optional.of(reported(1_000, 10)), 1_050,
                () -> { throw new AssertionError("looked for the newest compaction"); },
                () -> { throw new AssertionError("estimated the history"); }));
    }

    @Test
    void rightAfterACompactionTheStaleReportedCountTriggersNoSecondPass() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        turn(session, "remember the code word ALBATROSS");
        for (int i = 2; i <= 4; i++) {
            turn(session, "question " + i);
        }
        ai.lango.usage.UsageLedger ledger = new ai.lango.usage.UsageLedger() {
            @Override
            public Optional<ai.lango.turn.ModelCall> latestReported(String userId, String sessionKey) {
                return Optional.of(reported(5_000, 1)); // made before the compaction below, far past the budget
            }
        };
        compactor.ledger = ledger;
        assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1));
        assertEquals(HistoryCompactor.Outcome.FITS, compactor.compact(S1), "measured again, not by the stale count");
        assertEquals(1, asked.get());
    }

    /** A clock a test moves. */
    static final class MovingClock extends java.time.Clock {
        java.time.Instant now = java.time.Instant.parse("2026-11-29T00:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public java.time.Instant instant() {
            return now;
        }
    }

    @Test
    void aFailingSummarizerIsNotAskedAgainEveryTurnAndWarnsOnceThenSaysItFinely() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        for (int i = 1; i <= 4; i++) {
            turn(session, "question " + i);
        }
        boolean[] failing = {true};
        compactor.summarizer = (s, instruction, input) -> {
            asked.incrementAndGet();
            if (failing[0]) {
                throw new IllegalStateException("the model answered nothing");
            }
            return "SUMMARY: questions.";
        };
        MovingClock clock = new MovingClock();
        compactor.clock = clock;
        List<java.util.logging.Level> levels = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler listening = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getMessage() != null && record.getMessage().startsWith("compaction of a session failed")) {
                    levels.add(record.getLevel());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(HistoryCompactor.class.getName());
        java.util.logging.Level was = logger.getLevel();
        logger.setLevel(java.util.logging.Level.FINE);
        logger.addHandler(listening);
        try {
            assertEquals(HistoryCompactor.Outcome.FAILED, compactor.compact(S1));
            assertEquals(HistoryCompactor.Outcome.BACKING_OFF, compactor.compact(S1), "not asked again on the next turn");
            assertFalse(compactor.compactNow(S1), "nor before a turn's call");
            assertEquals(1, asked.get());
            clock.now = clock.now.plus(HistoryCompactor.FIRST_BACKOFF).plusSeconds(1);
            assertEquals(HistoryCompactor.Outcome.FAILED, compactor.compact(S1));
            clock.now = clock.now.plus(HistoryCompactor.FIRST_BACKOFF).plusSeconds(1);
            assertEquals(HistoryCompactor.Outcome.BACKING_OFF, compactor.compact(S1), "the wait doubles");
            clock.now = clock.now.plus(HistoryCompactor.FIRST_BACKOFF);
            failing[0] = false;
            assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1));
            assertEquals(3, asked.get());
            assertEquals(List.of(java.util.logging.Level.WARNING, java.util.logging.Level.FINE), levels);
        } finally {
            logger.removeHandler(listening);
            logger.setLevel(was);
        }
    }

    @Test
    void whatARetrySupersededIsNotSummarised() {
        List<String> shown = new java.util.concurrent.CopyOnWriteArrayList<>();
        HistoryCompactor folding = compactorOverCuttingStore((s, i, input) -> {
            shown.add(input);
            return "SUMMARY: " + input.lines().filter(l -> l.contains("ALBATROSS")).findFirst().orElse("");
        });
        JpaSessionService turnService = folding.sessions;
        turn(turnService, "remember the code word ALBATROSS", 400);
        turn(turnService, "draft question DISCARDED", 400);
        turnService.supersedeLastTurn(S1, "draft question DISCARDED");
        turn(turnService, "question 2", 400);
        turn(turnService, "question 3", 400);
        turn(turnService, "question 4", 400);
        assertEquals(HistoryCompactor.Outcome.COMPACTED, folding.compact(S1));
        assertEquals(1, shown.size());
        assertTrue(shown.get(0).contains("ALBATROSS") && shown.get(0).contains("question 2"), shown.get(0));
        assertFalse(shown.get(0).contains("DISCARDED"), "the superseded turn is not summarised: " + shown.get(0));
    }

    /** The spans a test's tracer started: their names, attributes and whether they ended. */
    static final class Spans {
        final List<String> names = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.Map<String, Object> attributes = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicInteger ended = new java.util.concurrent.atomic.AtomicInteger();

        io.opentelemetry.api.OpenTelemetry openTelemetry() {
            io.opentelemetry.api.trace.Span span = proxy(io.opentelemetry.api.trace.Span.class, (self, method, args) -> {
                switch (method.getName()) {
                    case "setAttribute" -> attributes.put(String.valueOf(args[0]), args[1]);
                    case "end" -> ended.incrementAndGet();
                    case "makeCurrent" -> {
                        return io.opentelemetry.context.Scope.noop();
                    }
                    case "getSpanContext" -> {
                        return io.opentelemetry.api.trace.SpanContext.getInvalid();
                    }
                    case "isRecording" -> {
                        return true;
                    }
                    default -> { }
                }
                return method.getReturnType().isInstance(self) ? self : null;
            });
            io.opentelemetry.api.trace.SpanBuilder builder = proxy(io.opentelemetry.api.trace.SpanBuilder.class, (self, method, args) -> {
                if (method.getName().equals("setAttribute") && args.length == 2) {
                    attributes.put(String.valueOf(args[0]), args[1]);
                }
                return method.getName().equals("startSpan") ? span : self;
            });
            io.opentelemetry.api.trace.Tracer tracer = name -> {
                names.add(name);
                return builder;
            };
            io.opentelemetry.api.trace.TracerProvider provider = proxy(io.opentelemetry.api.trace.TracerProvider.class,
                    (self, method, args) -> method.getReturnType() == io.opentelemetry.api.trace.Tracer.class ? tracer : null);
            return new io.opentelemetry.api.OpenTelemetry() {
                @Override
                public io.opentelemetry.api.trace.TracerProvider getTracerProvider() {
                    return provider;
                }

                @Override
                public io.opentelemetry.context.propagation.ContextPropagators getPropagators() {
                    return io.opentelemetry.context.propagation.ContextPropagators.noop();
                }
            };
        }

        @SuppressWarnings("unchecked")
        private static <T> T proxy(Class<T> type, java.lang.reflect.InvocationHandler handler) {
            return (T) java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
        }
    }

    @Test
    void eachFoldIsACompactionSpanWithTheTokensBeforeAndAfter() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        for (int i = 1; i <= 4; i++) {
            turn(session, "question " + i);
        }
        Spans spans = new Spans();
        ai.lango.telemetry.Telemetry.install(spans.openTelemetry(), false);
        try {
            assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1));
        } finally {
            ai.lango.telemetry.Telemetry.install(io.opentelemetry.api.OpenTelemetry.noop(), false);
        }
        assertEquals(List.of("compaction"), spans.names);
        assertEquals(1, spans.ended.get());
        long before = (Long) spans.attributes.get(HistoryCompactor.TOKENS_BEFORE.getKey());
        long after = (Long) spans.attributes.get(HistoryCompactor.TOKENS_AFTER.getKey());
        assertTrue(before > after && after > 0, before + " → " + after);
        assertEquals(4L, spans.attributes.get(HistoryCompactor.EVENTS_FOLDED.getKey()));
        assertEquals(false, spans.attributes.get(HistoryCompactor.SYNCHRONOUS.getKey()));
    }
}
