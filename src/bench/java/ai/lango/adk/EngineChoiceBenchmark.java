package ai.lango.adk;

import ai.lango.session.EmbeddedEngine;
import ai.lango.session.LocalTransactions;
import ai.lango.session.Message;
import ai.lango.session.SessionStore;
import ai.lango.turn.SessionRef;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * How each embedded database candidate does on the store's real code path (LangoRunner, the JPA
 * session service, EclipseLink, the Flyway schema), to choose the default by measurement:
 * <ul>
 *   <li>crash: a child JVM takes turns and prints each acknowledged one; it is killed with SIGKILL
 *       at a random moment, the database reopened, and every acknowledged turn looked for;</li>
 *   <li>the bare commit of one 500-character row over plain JDBC;</li>
 *   <li>a durable turn with one tool call (four stored events), p50 and p99;</li>
 *   <li>the files on disk after 10,000 such turns, open and after a clean shutdown.</li>
 * </ul>
 * Run: {@code mvn -Pbench -DskipTests test} (its engine-choice execution).
 */
public final class EngineChoiceBenchmark {

    private static final int CRASH_CYCLES = Integer.getInteger("bench.crash-cycles", 10);
    private static final int TURNS = Integer.getInteger("bench.turns", 10_000);
    private static final int WARMUP_TURNS = TURNS / 5;
    private static final int COMMITS = 2_000;
    private static final String ACK = "ACK ";

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--crash-child")) {
            crashChild(EmbeddedEngine.valueOf(args[1]), Path.of(args[2]));
            return;
        }
        Path base = Path.of(args.length > 0 ? args[0] : "target/bench-engines").toAbsolutePath();
        List<EmbeddedEngine> engines = args.length > 1 && !args[1].isBlank()
                ? Arrays.stream(args[1].split(",")).map(String::trim).map(EmbeddedEngine::valueOf).toList()
                : List.of(EmbeddedEngine.values());
        Map<EmbeddedEngine, String> rows = new LinkedHashMap<>();
        for (EmbeddedEngine engine : engines) {
            String crash = crash(engine, base.resolve("crash-" + engine));
            System.out.println(engine + " crash: " + crash);
            long[] commit = bareCommits(engine, base.resolve("commit-" + engine));
            String turnsAndSize = turnsAndSize(engine, base.resolve("turns-" + engine));
            rows.put(engine, String.format("| %s | %s | %.3f ms / %.3f ms | %s |", engine.label(), crash,
                    millis(commit, 50), millis(commit, 99), turnsAndSize));
            System.out.println(rows.get(engine));
        }
        System.out.printf("%nembedded engines on the store's code path (crash: %d SIGKILLs of a JVM taking turns;"
                + " commit: one 500-char row; turn: one tool call, %d turns after %d warm-up; size after %d turns)%n",
                CRASH_CYCLES, TURNS - WARMUP_TURNS, WARMUP_TURNS, TURNS);
        System.out.println("| engine, settings | acknowledged turns lost after SIGKILL | bare commit p50 / p99 "
                + "| durable turn p50 / p99 | size after 10,000 turns: open / after shutdown |");
        System.out.println("|---|---|---|---|---|");
        rows.values().forEach(System.out::println);
    }

    /** Kills a JVM taking turns, {@link #CRASH_CYCLES} times, and counts acknowledged turns not found after. */
    private static String crash(EmbeddedEngine engine, Path dir) throws Exception {
        new LocalTransactions(dir, engine, true).close();
        Random random = new Random(42);
        int acknowledged = 0;
        int lost = 0;
        int torn = 0;
        int unopenable = 0;
        for (int cycle = 0; cycle < CRASH_CYCLES; cycle++) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), EngineChoiceBenchmark.class.getName(),
                    "--crash-child", engine.name(), dir.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Map<String, Integer> acked = new LinkedHashMap<>();
            int killAfter = 1 + random.nextInt(40);
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                int seen = 0;
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith(ACK)) {
                        String[] parts = line.substring(ACK.length()).split(" ");
                        acked.put(parts[0], Integer.parseInt(parts[1]));
                        if (++seen == killAfter) {
                            child.toHandle().destroyForcibly(); // SIGKILL; Process.destroyForcibly would also close our end of its output
                        }
                    }
                }
            }
            child.waitFor(30, TimeUnit.SECONDS);
            try (LocalTransactions reopened = new LocalTransactions(dir, engine, false)) {
                SessionStore store = reopened.store(TurnCostBenchmark.settings(dir));
                for (Map.Entry<String, Integer> session : acked.entrySet()) {
                    List<Message> stored = store.messages(SessionRef.of("user", session.getKey()));
                    acknowledged += session.getValue();
                    lost += Math.max(0, session.getValue() - stored.size() / 4);
                    torn += tornTurns(stored);
                }
            } catch (RuntimeException failed) {
                unopenable++;
                new LocalTransactions(dir, engine, true).close();
            }
        }
        return lost + " of " + acknowledged + (torn > 0 ? ", " + torn + " torn" : "")
                + (unopenable > 0 ? ", " + unopenable + " times the database did not open" : "");
    }

    /** Turns whose stored events are not user, call, response, answer in order (a last, unfinished turn may stop early). */
    private static int tornTurns(List<Message> stored) {
        List<String> expected = List.of("user", "assistant", "tool", "assistant");
        int torn = 0;
        for (int i = 0; i < stored.size(); i++) {
            Message message = stored.get(i);
            boolean ok = message.role().equals(expected.get(i % 4))
                    && (i % 4 == 0 || i % 4 == 3 || message.toolCalls().size() == 1);
            if (!ok) {
                torn++;
            }
        }
        return torn;
    }

    /** Takes turns until killed, printing each acknowledged one ({@code ACK <session> <turns so far>}). */
    private static void crashChild(EmbeddedEngine engine, Path dir) throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir, engine, false)) {
            TurnCostBenchmark.Turns turns = TurnCostBenchmark.durableTurns(local, dir);
            // Sessions of ten turns, as chats are: one ever-growing session would measure history loading.
            for (int turn = 0; ; turn++) {
                String session = "crash-" + ProcessHandle.current().pid() + "-" + turn / 10;
                turns.turn(session, "please note turn " + turn);
                System.out.println(ACK + session + " " + (turn % 10 + 1));
                System.out.flush();
            }
        }
    }

    /** Plain JDBC: insert one 500-character row and commit, {@link #COMMITS} times after a warm-up. */
    static long[] bareCommits(EmbeddedEngine engine, Path dir) throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir, engine, true);
             Connection connection = local.dataSource().getConnection()) {
            try (Statement ddl = connection.createStatement()) {
                ddl.execute("CREATE TABLE bench_commit (id BIGINT PRIMARY KEY, content VARCHAR(1000))");
            }
            connection.setAutoCommit(false);
            String content = "x".repeat(500);
            long[] nanos = new long[COMMITS];
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO bench_commit VALUES (?, ?)")) {
                for (int i = -COMMITS / 2; i < COMMITS; i++) {
                    long t0 = System.nanoTime();
                    insert.setLong(1, i + COMMITS);
                    insert.setString(2, content);
                    insert.executeUpdate();
                    connection.commit();
                    if (i >= 0) {
                        nanos[i] = System.nanoTime() - t0;
                    }
                }
            }
            Arrays.sort(nanos);
            return nanos;
        }
    }

    private static String turnsAndSize(EmbeddedEngine engine, Path dir) throws Exception {
        long[] nanos = new long[TURNS - WARMUP_TURNS];
        long open;
        try (LocalTransactions local = new LocalTransactions(dir, engine, true)) {
            TurnCostBenchmark.Turns turns = TurnCostBenchmark.durableTurns(local, dir);
            String session = null;
            for (int i = 0; i < TURNS; i++) {
                if (i % 10 == 0) {
                    session = "size-" + i;
                }
                long t0 = System.nanoTime();
                turns.turn(session, "please note turn " + i);
                if (i >= WARMUP_TURNS) {
                    nanos[i - WARMUP_TURNS] = System.nanoTime() - t0;
                }
            }
            open = EmbeddedEngine.sizeOnDisk(dir);
        }
        long closed = EmbeddedEngine.sizeOnDisk(dir);
        Arrays.sort(nanos);
        return String.format("%.3f ms / %.3f ms | %.1f MB / %.1f MB", millis(nanos, 50), millis(nanos, 99),
                open / 1e6, closed / 1e6);
    }

    static double millis(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
    }

    private EngineChoiceBenchmark() {
    }
}
