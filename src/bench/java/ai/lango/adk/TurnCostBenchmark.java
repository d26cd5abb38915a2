package ai.lango.adk;

import ai.lango.config.LangoSettings;
import ai.lango.provider.ChatMessage;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.Provider;
import ai.lango.provider.StreamEvent;
import ai.lango.session.LocalTransactions;
import com.google.adk.agents.LlmAgent;
import com.google.adk.agents.RunConfig;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.runner.InMemoryRunner;
import com.google.adk.runner.Runner;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The framework's own cost of one turn with one tool call, against a provider with zero latency:
 * Lango's durable turn (LangoRunner over the JPA session service, H2 file database) side by side
 * with the same agent on ADK's InMemoryRunner. Run: {@code mvn -Pbench -DskipTests test}.
 */
public final class TurnCostBenchmark {

    private static final int TURNS_PER_SESSION = 10;
    private static final int WARMUP_TURNS = 2_000;
    private static final int MEASURED_TURNS = 3_000;
    private static final int ROUNDS = 3;

    /** Calls the tool when the user spoke last, answers when the tool did: one tool call per turn. */
    static final class InstantProvider implements Provider {
        @Override
        public String id() {
            return "instant";
        }

        @Override
        public OpenStream open(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            boolean toolAnswered = messages.get(messages.size() - 1).role() == ChatMessage.Role.TOOL;
            List<StreamEvent> events = toolAnswered
                    ? List.of(new StreamEvent.TextDelta("Done: "), new StreamEvent.TextDelta("noted."), new StreamEvent.Done("stop"))
                    : List.of(new StreamEvent.ToolCallEvent("call-" + messages.size(), "noop", "{}"), new StreamEvent.Done("tool_calls"));
            return ModelAdapterTest.FakeProvider.replay(events);
        }
    }

    /** Settings for a store in {@code dir}; only the model name (the token budget) matters here. */
    static LangoSettings settings(Path dir) {
        return LocalTransactions.settings(dir);
    }

    /** Lango's durable turn: LangoRunner over the JPA session service over {@code local}'s store. */
    static Turns durableTurns(LocalTransactions local, Path dir) {
        LangoSettings settings = settings(dir);
        JpaSessionService sessions = new JpaSessionService(local.store(settings), settings);
        LlmAgent durableAgent = agent();
        Runner durableAdk = Runner.builder().agent(durableAgent).appName("lango").sessionService(sessions)
                .artifactService(new InMemoryArtifactService()).build();
        LangoRunner lango = new LangoRunner(durableAdk, durableAgent,
                new LangoRunner.Limits(25, true, Duration.ofMinutes(1)), ErrorFixProvider.NONE);
        return (session, text) -> lango.runAndCollect("user", session, text, false, e -> { });
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/bench-turns").toAbsolutePath();
        try (LocalTransactions local = new LocalTransactions(dir)) {
            Turns ours = durableTurns(local, dir);
            InMemoryRunner inMemory = new InMemoryRunner(agent(), "lango");
            Turns adk = (session, text) -> {
                if (inMemory.sessionService().getSession("lango", "user", session, Optional.empty()).blockingGet() == null) {
                    inMemory.sessionService().createSession("lango", "user", null, session).blockingGet();
                }
                inMemory.runAsync("user", session, Content.builder().role("user")
                                .parts(List.of(Part.fromText(text))).build(), RunConfig.builder().build())
                        .blockingSubscribe();
            };
            measure("warm-up", ours, WARMUP_TURNS);
            measure("warm-up", adk, WARMUP_TURNS);
            long[] oursAll = new long[0];
            long[] adkAll = new long[0];
            for (int round = 0; round < ROUNDS; round++) {
                oursAll = concat(oursAll, measure("lango-" + round, ours, MEASURED_TURNS));
                adkAll = concat(adkAll, measure("adk-" + round, adk, MEASURED_TURNS));
            }
            Arrays.sort(oursAll);
            Arrays.sort(adkAll);
            System.out.printf("%nframework cost per turn (one tool call, zero-latency provider), %d turns each%n", oursAll.length);
            System.out.printf("%-48s %10s %10s %10s%n", "", "p50 (ms)", "p99 (ms)", "mean (ms)");
            print("Lango: LangoRunner + JPA session service (H2 file)", oursAll);
            print("ADK InMemoryRunner + InMemorySessionService", adkAll);
            double ratio = (double) percentile(oursAll, 50) / percentile(adkAll, 50);
            System.out.printf("%nLango / ADK in-memory (p50): %.2fx (target: at most 1.5x); Lango p50 %.3f ms (target: under 5 ms)%n",
                    ratio, percentile(oursAll, 50) / 1e6);
        }
    }

    interface Turns {
        void turn(String session, String text) throws Exception;
    }

    private static LlmAgent agent() {
        return LlmAgent.builder().name(AgentService.AGENT_NAME).description(AgentService.AGENT_DESCRIPTION)
                .model(new ModelAdapter("bench-model", new InstantProvider(), Provider::open))
                .instruction("You are Lango.")
                .tools(new LangoRunnerTest.Noop())
                .build();
    }

    private static int sessionCounter;

    private static long[] measure(String label, Turns turns, int count) throws Exception {
        long[] nanos = new long[count];
        String session = null;
        for (int i = 0; i < count; i++) {
            if (i % TURNS_PER_SESSION == 0) {
                session = label + "-" + (sessionCounter++);
            }
            long t0 = System.nanoTime();
            turns.turn(session, "please note turn " + i);
            nanos[i] = System.nanoTime() - t0;
        }
        return nanos;
    }

    private static void print(String label, long[] sorted) {
        System.out.printf("%-48s %10.3f %10.3f %10.3f%n", label, percentile(sorted, 50) / 1e6, percentile(sorted, 99) / 1e6,
                Arrays.stream(sorted).average().orElse(0) / 1e6);
    }

    private static long percentile(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static long[] concat(long[] a, long[] b) {
        long[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
