package ai.lango.adk;

import ai.lango.adk.models.ModelAdapter;
import ai.lango.adk.models.ModelAdapterTest;
import ai.lango.adk.runner.LangoRunner;
import ai.lango.adk.runner.NoopTool;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.config.LangoSettings;
import ai.lango.provider.ChatMessage;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.Provider;
import ai.lango.provider.StreamEvent;
import ai.lango.session.LocalTransactions;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.Names;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cost of one turn with one tool call, against a provider with zero latency, on the crash-safe
 * configuration (HSQLDB file, every commit fsynced), printed side by side in one run: the floor
 * (bare durable commits over plain JDBC, one per stored event), Lango's durable turn (LangoRunner
 * over the JPA session service), the same agent on ADK's InMemoryRunner (nothing stored), and
 * Spring AI's JDBC chat memory storing the same four events. Run: {@code mvn -Pbench -DskipTests test}.
 */
public final class TurnCostBenchmark {

    private static final int TURNS_PER_SESSION = 10;
    private static final int WARMUP_TURNS = Integer.getInteger("bench.warmup", 2_000);
    private static final int MEASURED_TURNS = Integer.getInteger("bench.turns", 1_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

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
        JpaSessionService sessions = new JpaSessionService(local.serverStore(settings), settings);
        LlmAgent durableAgent = agent();
        Runner durableAdk = Runner.builder().agent(durableAgent).appName("lango").sessionService(sessions)
                .artifactService(new InMemoryArtifactService()).build();
        LangoRunner lango = new LangoRunner(durableAdk, durableAgent,
                new LangoRunner.Limits(25, true, Duration.ofMinutes(1)), LearnedFixes.NONE);
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
            FloorCommits floor = new FloorCommits(local.dataSource());
            Turns floorTurn = (session, text) -> floor.commits(EVENTS_PER_TURN);
            SpringAiMemoryTurns spring = new SpringAiMemoryTurns(local.dataSource());

            Map<String, Turns> contenders = new LinkedHashMap<>();
            contenders.put(FLOOR, floorTurn);
            contenders.put(LANGO, ours);
            contenders.put(ADK, adk);
            contenders.put(SPRING, spring::turn);
            for (Map.Entry<String, Turns> contender : contenders.entrySet()) {
                measure("warm-up", contender.getValue(), WARMUP_TURNS);
            }
            // Round by round, side by side: fsync latency on this shared disk drifts with the other
            // builds' writes, so each contender sees the same conditions.
            Map<String, long[]> samples = new LinkedHashMap<>();
            long[] singleCommits = new long[0];
            for (int round = 0; round < ROUNDS; round++) {
                for (Map.Entry<String, Turns> contender : contenders.entrySet()) {
                    samples.merge(contender.getKey(), measure(contender.getKey() + "-" + round, contender.getValue(), MEASURED_TURNS),
                            TurnCostBenchmark::concat);
                }
                singleCommits = concat(singleCommits, floor.timedCommits(MEASURED_TURNS));
            }
            samples.values().forEach(Arrays::sort);
            Arrays.sort(singleCommits);
            long[] lango = samples.get(LANGO);
            long[] floorTurns = samples.get(FLOOR);

            System.out.printf("%ndurable turn cost: one tool call (%d stored events), zero-latency provider, HSQLDB file"
                    + " (fsync per commit), %d turns each in %d alternating rounds after %d warm-up turns%n",
                    EVENTS_PER_TURN, lango.length, ROUNDS, WARMUP_TURNS);
            System.out.printf("%-66s %10s %10s %10s%n", "", "p50 (ms)", "p99 (ms)", "mean (ms)");
            print("floor: one bare durable commit (JDBC, one 500-char row)", singleCommits);
            print("floor: " + EVENTS_PER_TURN + " bare durable commits (a turn's worth)", floorTurns);
            print("Lango: LangoRunner + JPA session service, durable turn", lango);
            print("ADK: InMemoryRunner + InMemorySessionService (nothing stored)", samples.get(ADK));
            print("Spring AI: MessageWindowChatMemory over JdbcChatMemoryRepository", samples.get(SPRING));
            double over = (percentile(lango, 50) - percentile(floorTurns, 50)) / 1e6;
            System.out.printf("%nLango's durable turn = its %d durable commits at the floor + %.3f ms (p50; target: at most + 0.5 ms)%n",
                    EVENTS_PER_TURN, over);
            System.out.println(spring.keptAfter(100));
        }
    }

    private static final String FLOOR = "floor";
    private static final String LANGO = "lango";
    private static final String ADK = "adk";
    private static final String SPRING = "spring-ai";
    /** User message, tool call, tool response, answer: each stored before it goes on. */
    static final int EVENTS_PER_TURN = 4;

    interface Turns {
        void turn(String session, String text) throws Exception;
    }

    private static LlmAgent agent() {
        return LlmAgent.builder().name(Names.SINGLE_AGENT).description(Names.SINGLE_AGENT_DESCRIPTION)
                .model(new ModelAdapter("bench-model", new InstantProvider(), ModelAdapter.DIRECT))
                .instruction("You are Lango.")
                .tools(new NoopTool())
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
        System.out.printf("%-66s %10.3f %10.3f %10.3f%n", label, percentile(sorted, 50) / 1e6, percentile(sorted, 99) / 1e6,
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
