package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turn.LearnedFixes;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnFailedException;
import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The runner wrapper's rules: text collection, the hallucinated-agent retry, the turn limit, self-correction, streaming. */
class LangoRunnerTest {

    private static final LangoRunner.Limits LIMITS = new LangoRunner.Limits(25, true, Duration.ofSeconds(30));

    private static LangoRunner runner(LlmAgent root, LangoRunner.Limits limits, LearnedFixes fixes) {
        return runner(root, limits, fixes, ServerTurns.NONE);
    }

    private static LangoRunner runner(LlmAgent root, LangoRunner.Limits limits, LearnedFixes fixes, ServerTurns servers) {
        Runner adk = Runner.builder().agent(root).appName("lango")
                .sessionService(new InMemorySessionService())
                .artifactService(new InMemoryArtifactService()).build();
        adk.sessionService().createSession("lango", "user", null, "s").blockingGet();
        return new LangoRunner(adk, root, limits, fixes, servers);
    }

    @Test
    void aTurnHoldsTheSessionAcrossServersAndReleasesItWhenItEnds() {
        List<String> log = new ArrayList<>();
        ServerTurns servers = (session, wait) -> {
            log.add("acquire " + session);
            return Optional.of(() -> log.add("release " + session));
        };
        ScriptedLlm model = new ScriptedLlm().then(() -> {
            log.add("model");
            return Flowable.just(ScriptedLlm.text("hi"));
        });
        assertEquals("hi", runner(single(model), LIMITS, LearnedFixes.NONE, servers).runAndCollect("user", "s", "go", false, e -> { }));
        String scope = SessionRef.of("user", "s").scope(); // a user's id names the session only with its user
        assertEquals(List.of("acquire " + scope, "model", "release " + scope), log);
        assertEquals(32, scope.length());
        assertNotEquals(scope, SessionRef.of("someone-else", "s").scope());
    }

    @Test
    void aSessionBusyOnAnotherServerPastTheTimeoutIsRefusedWithoutCallingTheModel() {
        ScriptedLlm model = new ScriptedLlm().then(() -> Flowable.just(ScriptedLlm.text("never")));
        LangoRunner runner = runner(single(model), LIMITS, LearnedFixes.NONE, (session, wait) -> Optional.empty());
        TurnFailedException error = assertThrows(TurnFailedException.class,
                () -> runner.runAndCollect("user", "s", "go", false, e -> { }));
        assertTrue(error.getMessage().contains("a turn on another server did not finish"), error.getMessage());
        assertEquals(0, model.requests.size(), "the model is never called");
    }

    private static LlmAgent single(ScriptedLlm model) {
        return LlmAgent.builder().name("lango-agent").description("Lango Assistant").model(model)
                .tools(new NoopTool()).build();
    }

    private static LlmAgent withExecutor(ScriptedLlm model) {
        LlmAgent executor = LlmAgent.builder().name("executor").description("runs things").model(model).build();
        return LlmAgent.builder().name("lango-orchestrator").description("delegates").model(model)
                .subAgents(executor).build();
    }

    private static String ask(LangoRunner runner, String text) {
        return runner.runAndCollect("user", "s", text, false, e -> { });
    }

    @Test
    void requestTimeoutBoundsTheWholeRunNotEachChunk() {
        // A chunk every 50 ms, never ending: each gap is far below the timeout, the run is not.
        ScriptedLlm model = new ScriptedLlm().then(() -> Flowable.interval(50, java.util.concurrent.TimeUnit.MILLISECONDS)
                .map(i -> partial("tick ")));
        LangoRunner runner = runner(single(model), new LangoRunner.Limits(25, true, Duration.ofMillis(400)),
                LearnedFixes.NONE);

        long start = System.nanoTime();
        TurnFailedException error = assertThrows(TurnFailedException.class,
                () -> runner.runAndCollect("user", "s", "go", true, e -> { }));
        assertEquals("the turn did not finish within the request timeout", error.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos());
    }

    @Test
    void eachChunkReachesTheListenerWhileTheModelIsStillWriting() {
        // A model that writes on the subscribing thread, as a provider reading its HTTP stream does.
        long gapMillis = 150;
        ScriptedLlm model = new ScriptedLlm().then(() -> Flowable.<LlmResponse>create(emitter -> {
            for (String chunk : List.of("one ", "two ", "three")) {
                emitter.onNext(partial(chunk));
                Thread.sleep(gapMillis);
            }
            emitter.onNext(ScriptedLlm.text("one two three"));
            emitter.onComplete();
        }, io.reactivex.rxjava3.core.BackpressureStrategy.BUFFER));
        LangoRunner runner = runner(single(model), LIMITS, LearnedFixes.NONE);
        List<Long> arrivals = new ArrayList<>();
        long start = System.nanoTime();

        String answer = runner.runAndCollect("user", "s", "count", true, e -> {
            if (e.partial().orElse(false)) {
                arrivals.add((System.nanoTime() - start) / 1_000_000);
            }
        });

        assertEquals("one two three", answer);
        assertEquals(3, arrivals.size());
        assertTrue(arrivals.get(0) < gapMillis, "first chunk at " + arrivals + " ms, before the model's second");
        assertTrue(arrivals.get(1) - arrivals.get(0) >= gapMillis - 20, "chunks follow the model's pacing: " + arrivals);
    }

    @Test
    void streamingModeCollectsFromPartialEventsOnly() {
        ScriptedLlm model = new ScriptedLlm().then(() -> Flowable.just(
                partial("Hello "), partial("world"), ScriptedLlm.text("Hello world")));
        assertEquals("Hello world", ask(runner(single(model), LIMITS, LearnedFixes.NONE), "hi"));
    }

    @Test
    void nonStreamingModeCollectsFromFinalEvent() {
        ScriptedLlm model = new ScriptedLlm().thenText("Hello world");
        assertEquals("Hello world", ask(runner(single(model), LIMITS, LearnedFixes.NONE), "hi"));
    }

    @Test
    void turnLimitStopsAModelThatCallsToolsForever() {
        ScriptedLlm model = new ScriptedLlm().always(() -> Flowable.just(ScriptedLlm.call("noop", Map.of())));
        LangoRunner runner = runner(single(model), new LangoRunner.Limits(3, true, Duration.ofSeconds(30)),
                LearnedFixes.NONE);

        TurnFailedException error = assertThrows(TurnFailedException.class, () -> ask(runner, "loop"));

        assertEquals("agent exceeded maximum turn limit (3)", error.getMessage());
        assertEquals(4, model.requests.size(), "the fourth tool call is the one past the limit");
    }

    @Test
    void hallucinatedAgentNameTriggersOneRetryWithTheCorrection() {
        ScriptedLlm model = new ScriptedLlm()
                .thenCall("transfer_to_agent", Map.of("agent_name", "exec-agent"))
                .thenText("Done by the book.");
        LangoRunner runner = runner(withExecutor(model), LIMITS, LearnedFixes.NONE);

        assertEquals("Done by the book.", ask(runner, "do it"));
        assertTrue(model.lastRequestText().contains("[System: Agent \"exec-agent\" does not exist. Valid agents: executor."
                + " Please retry using one of the valid agent names listed above.]"), model.lastRequestText());
    }

    @Test
    void retryThatAlsoFailsReturnsTheRetryError() {
        ScriptedLlm model = new ScriptedLlm()
                .thenCall("transfer_to_agent", Map.of("agent_name", "ghost"))
                .thenError(new IllegalStateException("provider down"));
        LangoRunner runner = runner(withExecutor(model), LIMITS, LearnedFixes.NONE);

        assertEquals("provider down", assertThrows(TurnFailedException.class, () -> ask(runner, "x")).getMessage());
    }

    @Test
    void goStyleFailedToFindAgentIsRecognisedToo() {
        assertEquals(Optional.of("planer"), Corrections.hallucinatedAgent(new RuntimeException("failed to find agent: planer")));
        assertEquals(Optional.of("planer"), Corrections.hallucinatedAgent(new IllegalStateException("Agent not found: planer")));
        assertEquals(Optional.empty(), Corrections.hallucinatedAgent(new RuntimeException("timeout")));
    }

    @Test
    void nonHallucinationErrorIsNotRetried() {
        ScriptedLlm model = new ScriptedLlm().thenError(new IllegalStateException("rate limited")).thenText("never");
        LangoRunner runner = runner(withExecutor(model), LIMITS, LearnedFixes.NONE);

        assertEquals("rate limited", assertThrows(TurnFailedException.class, () -> ask(runner, "x")).getMessage());
        assertEquals(1, model.requests.size());
    }

    @Test
    void noSubAgentsMeansNoRetry() {
        ScriptedLlm model = new ScriptedLlm().thenError(new IllegalStateException("Agent not found: helper")).thenText("never");
        LangoRunner runner = runner(single(model), LIMITS, LearnedFixes.NONE);

        assertThrows(TurnFailedException.class, () -> ask(runner, "x"));
        assertEquals(1, model.requests.size());
    }

    @Test
    void confidentLearnedFixRetriesOnceWithTheFixMessage() {
        ScriptedLlm model = new ScriptedLlm().thenError(new IllegalStateException("permission denied")).thenText("fixed");
        LangoRunner runner = runner(single(model), LIMITS, new FixedFix("use the workspace", 0.9));

        assertEquals("fixed", ask(runner, "write /etc/x"));
        assertTrue(model.lastRequestText().contains(
                "[System: Previous action failed with: permission denied. Suggested fix: use the workspace. Please retry.]"));
    }

    @Test
    void fixAtOrBelowThresholdConfidenceIsNotApplied() {
        ScriptedLlm model = new ScriptedLlm().thenError(new IllegalStateException("permission denied")).thenText("never");
        LangoRunner runner = runner(single(model), LIMITS, new FixedFix("guess", 0.7));

        assertThrows(TurnFailedException.class, () -> ask(runner, "x"));
        assertEquals(1, model.requests.size());
    }

    @Test
    void errorCorrectionCanBeSwitchedOff() {
        ScriptedLlm model = new ScriptedLlm().thenError(new IllegalStateException("permission denied")).thenText("never");
        LangoRunner runner = runner(single(model), new LangoRunner.Limits(25, false, Duration.ofSeconds(30)),
                new FixedFix("fix", 0.95));

        assertThrows(TurnFailedException.class, () -> ask(runner, "x"));
        assertEquals(1, model.requests.size());
    }

    @Test
    void everyEventReachesTheListenerBeforeAnError() {
        ScriptedLlm model = new ScriptedLlm().always(() -> Flowable.just(ScriptedLlm.call("noop", Map.of())));
        LangoRunner runner = runner(single(model), new LangoRunner.Limits(2, true, Duration.ofSeconds(30)),
                LearnedFixes.NONE);
        List<Event> seen = new ArrayList<>();

        assertThrows(TurnFailedException.class, () -> runner.runAndCollect("user", "s", "loop", false, seen::add));

        assertEquals(4, seen.size(), "two calls and two responses, then the limit");
        assertFalse(seen.isEmpty());
    }

    /** Learned fixes that know one fix for every error, and remember what became of it. */
    static final class FixedFix implements LearnedFixes {
        private final Fix fix;
        final List<Boolean> outcomes = new ArrayList<>();

        FixedFix(String fix, double confidence) {
            this.fix = new Fix(1, fix, confidence);
        }

        @Override
        public Optional<Fix> fixFor(String userId, String error) {
            return Optional.of(fix);
        }

        @Override
        public void outcome(String userId, boolean admin, Fix applied, boolean succeeded) {
            outcomes.add(succeeded);
        }
    }

    private static LlmResponse partial(String text) {
        return LlmResponse.builder().content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
                .partial(true).build();
    }
}
