package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.sessions.JpaSessionServiceTest;
import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.session.Message;
import ai.lango.session.StateDelta;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnFailedException;
import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The user's message commits while the model is called (docs/contract.md, "Data guarantees"):
 * the model is not kept waiting for the commit, nothing of the answer reaches the client before
 * the commit is done, and a message that cannot be stored fails the turn with nothing sent.
 */
class OverlappedInputCommitTest {

    private static final LangoRunner.Limits LIMITS = new LangoRunner.Limits(25, false, Duration.ofSeconds(30));

    /** A store whose message commits take as long as the test says: each completes when the test completes it. */
    private static final class SlowStore extends JpaSessionServiceTest.RecordingStore {
        final List<String> log;
        final CompletableFuture<Void> commit = new CompletableFuture<>();

        SlowStore(List<String> log) {
            this.log = log;
        }

        @Override
        public CompletableFuture<Void> appendSoon(SessionRef key, Message message, StateDelta delta, Instant when,
                                                  ai.lango.session.TurnRecord.Begin turn) {
            log.add("commit started: " + message.content());
            return commit.thenRun(() -> {
                append(key, message, delta, when);
                log.add("committed: " + message.content());
            });
        }

        @Override
        public void append(SessionRef key, Message message, StateDelta delta, Instant when) {
            super.append(key, message, delta, when);
            if (message != null && !"user".equals(message.role())) {
                log.add("stored: " + message.content());
            }
        }
    }

    private static LangoRunner runner(SlowStore store, ScriptedLlm model) {
        LangoSettings settings = TestSettings.defaults(Path.of("/tmp/lango"));
        LlmAgent agent = LlmAgent.builder().name("lango-agent").description("Lango Assistant").model(model).build();
        JpaSessionService sessions = new JpaSessionService(store, settings);
        // As the engine runs a turn: its writes go through the turn's own view of the session service.
        LangoRunner.Runners runners = turn -> {
            ai.lango.adk.sessions.TurnSessions written = sessions.forTurn(turn);
            return new LangoRunner.Run(Runner.builder().agent(agent).appName("lango").sessionService(written)
                    .artifactService(new InMemoryArtifactService()).build(), written::awaitInput);
        };
        return new LangoRunner(runners, java.util.List.of(), LIMITS, LearnedFixes.NONE, ServerTurns.NONE, LangoRunner.CutTurns.NONE,
                LangoRunner.TurnEnds.NONE);
    }

    @Test
    void theModelIsCalledWhileTheQuestionCommitsAndTheFirstChunkWaitsForTheCommit() {
        List<String> log = new CopyOnWriteArrayList<>();
        SlowStore store = new SlowStore(log);
        ScriptedLlm model = new ScriptedLlm().then(() -> {
            log.add("model called");
            // The commit finishes only once the model has been called: the two overlap.
            new Thread(() -> {
                sleep(200);
                store.commit.complete(null);
            }).start();
            return Flowable.just(chunk("fine, "), chunk("thanks"), ScriptedLlm.text("fine, thanks"));
        });
        String answer = runner(store, model).runAndCollect("user", "s", "how are you?", true,
                event -> log.add("sent: " + event.stringifyContent()));
        assertEquals("fine, thanks", answer);
        assertEquals(List.of("commit started: how are you?", "model called", "committed: how are you?",
                "sent: fine,", "sent: thanks", "stored: fine, thanks", "sent: fine, thanks"), log.stream().map(String::strip).toList());
    }

    @Test
    void aQuestionThatCannotBeStoredFailsTheTurnAndNothingOfTheAnswerReachesTheClient() {
        List<String> log = new CopyOnWriteArrayList<>();
        SlowStore store = new SlowStore(log);
        ScriptedLlm model = new ScriptedLlm().then(() -> {
            log.add("model called");
            store.commit.completeExceptionally(new IllegalStateException("the database refused the write"));
            return Flowable.just(ScriptedLlm.text("an answer nobody may see"));
        });
        TurnFailedException failed = assertThrows(TurnFailedException.class, () -> runner(store, model)
                .runAndCollect("user", "s", "how are you?", false, event -> log.add("sent: " + event.stringifyContent())));
        assertTrue(failed.getMessage().contains("the database refused the write"), failed.getMessage());
        assertEquals(List.of("commit started: how are you?", "model called"), log);
        assertTrue(store.messages.values().stream().flatMap(List::stream).toList().isEmpty(), "nothing stored");
    }

    /** A streamed chunk: sent to the client as it comes, never stored. */
    private static LlmResponse chunk(String text) {
        return LlmResponse.builder().content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
                .partial(true).build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
