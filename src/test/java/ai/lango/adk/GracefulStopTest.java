package ai.lango.adk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.models.ProviderCalls;
import ai.lango.adk.runner.RunnerFixtures;
import ai.lango.adk.runner.TurnThreads;
import ai.lango.adk.sessions.EventMessages;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.sessions.JpaSessionServiceTest;
import ai.lango.adk.tools.ToolCatalogs;
import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.prompt.ContextSections;
import ai.lango.session.Message;
import ai.lango.session.SessionLeases;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.Recall;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnRequest;
import com.google.adk.events.Event;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On stop, new turns are refused and turns in flight finish within the grace or end with a stored, visible error. */
class GracefulStopTest {

    @TempDir
    Path dir;

    private FakeLlmServer fake;
    private JpaSessionServiceTest.RecordingStore store;
    private TestEngine service;
    private TurnThreads threads;

    @BeforeEach
    void start() {
        fake = FakeLlmServer.start();
        LangoSettings settings = TestSettings.of(dir, TestSettings.and(TestSettings.model("openai", fake.baseUrl() + "/v1",
                "gpt-4o-mini"), "lango.agent.error-correction", "false", "lango.agent.request-timeout", "PT1M"));
        store = new JpaSessionServiceTest.RecordingStore();
        threads = RunnerFixtures.threads();
        service = new TestEngine(settings, store, threads).start();
    }

    @AfterEach
    void stop() {
        RunnerFixtures.stop(threads);
        fake.close();
    }

    /** A turn whose model call the fake server has received (so the user message is stored). */
    private CompletableFuture<String> turnWaitingForTheModel(String session, Reply reply) throws InterruptedException {
        fake.enqueue(reply);
        CompletableFuture<String> turn = service.chat("user", true, session, "hello", true);
        for (int i = 0; i < 500 && fake.requests().isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertEquals(1, fake.requests().size(), "the model was called");
        return turn;
    }

    @Test
    void newTurnsAreRefusedOnceTheServerIsStopping() {
        service.engine.drain(Duration.ofSeconds(1));

        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> service.chat("user", true, "s", "hello", true).get(5, TimeUnit.SECONDS));
        assertEquals(TurnEngine.STOPPING, refused.getCause().getMessage());
        assertTrue(fake.requests().isEmpty(), "no model was called");
    }

    @Test
    void turnInFlightFinishesWithinTheGrace() throws Exception {
        CompletableFuture<String> turn = turnWaitingForTheModel("s", Reply.delayed(Duration.ofMillis(700), Reply.openAiText("All ", "done.")));

        service.engine.drain(Duration.ofSeconds(20));

        assertEquals("All done.", turn.getNow(null), "the drain returned only after the turn had finished");
        assertEquals(List.of("user", "assistant"), store.messages.get(SessionRef.of("user", "s")).stream().map(Message::role).toList());
    }

    /**
     * A turn that ends while the server stops, after the container's executors are gone (the async event of a
     * finished turn refused with RejectedExecutionException): its caller still gets the answer, and the drain
     * returns as the turn ends.
     */
    @Test
    void aTurnEndingAfterTheExecutorsAreGoneStillAnswersItsCaller() throws Exception {
        ((RecordedEvents<?>) service.engine.completed).refusal =
                new java.util.concurrent.RejectedExecutionException("the executor is shut down");
        CompletableFuture<String> turn = turnWaitingForTheModel("s", Reply.delayed(Duration.ofMillis(700), Reply.openAiText("All ", "done.")));

        long started = System.nanoTime();
        service.engine.drain(Duration.ofSeconds(20));

        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10), "the drain took as long as the turn, not the grace");
        assertEquals("All done.", turn.get(1, TimeUnit.SECONDS), "the caller got the answer");
    }

    @Test
    void turnOutlivingTheGraceEndsWithAStoredVisibleError() throws Exception {
        CompletableFuture<String> turn = turnWaitingForTheModel("s", Reply.delayed(Duration.ofSeconds(30), Reply.openAiText("too late")));

        long started = System.nanoTime();
        service.engine.drain(Duration.ofMillis(300));

        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10), "the drain is bounded");
        ExecutionException ended = assertThrows(ExecutionException.class, () -> turn.get(1, TimeUnit.SECONDS));
        assertEquals(TurnEngine.STOPPED, ended.getCause().getMessage());
        List<Message> stored = store.messages.get(SessionRef.of("user", "s"));
        assertEquals(List.of("user", "assistant"), stored.stream().map(Message::role).toList());
        Event error = EventMessages.toEvents(stored, "lango-agent").get(1); // as a reader of the session gets it
        assertEquals(TurnEngine.STOPPED, error.errorMessage().orElseThrow());
        assertEquals(TurnEngine.STOPPED_CODE, error.errorCode().orElseThrow().toString());
        assertTrue(error.content().isEmpty(), "no model reads it as something the agent said");
    }
}
