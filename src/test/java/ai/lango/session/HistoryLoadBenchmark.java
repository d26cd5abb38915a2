package ai.lango.session;

import ai.lango.turn.SessionRef;
import jakarta.persistence.EntityManager;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How long loading a session's history for the model takes, at a fixed token budget, for 50,
 * 1,000 and 10,000 stored messages on the embedded HSQLDB file database, through the store's real code path
 * (EclipseLink, the Flyway schema). Side by side: loading every message and truncating in memory,
 * which is what a store without the newest-first window would do.
 *
 * <p>Run: {@code mvn -Pbench -DskipTests test} (see README). Not a test: it prints figures.
 */
public final class HistoryLoadBenchmark {

    private static final int BUDGET = 4000;
    private static final int[] SIZES = {50, 1_000, 10_000};
    private static final int WARMUP = 300;
    private static final int MEASURED = 1_000;
    private static final int FULL_LOAD_MEASURED = 30;

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/bench-history").toAbsolutePath();
        try (LocalTransactions local = new LocalTransactions(dir)) {
            run(local);
        }
    }

    private static void run(LocalTransactions local) {
        EntityManager em = local.entityManager();
        SessionRows rows = local.rows();
        SessionStore store = local.store(null);

        for (int size : SIZES) {
            fill(rows, bench(size), size);
        }

        System.out.printf("%nhistory load at a budget of %d tokens, HSQLDB file database, %d loads after %d warm-up loads%n",
                BUDGET, MEASURED, WARMUP);
        System.out.printf("%-10s %8s %12s %12s %12s %22s%n",
                "messages", "kept", "p50 (ms)", "mean (ms)", "p99 (ms)", "load-all p50 (ms)");
        for (int size : SIZES) { // warm every size first, so no size pays for the JIT more than another
            SessionRef key = bench(size);
            time(em, WARMUP, 1, () -> store.history(key, BUDGET));
        }
        double first = 0;
        double last = 0;
        for (int size : SIZES) {
            SessionRef key = bench(size);
            int kept = store.history(key, BUDGET).size();
            long[] windowed = time(em, WARMUP, MEASURED, () -> store.history(key, BUDGET));
            long[] everything = time(em, 3, FULL_LOAD_MEASURED,
                    () -> HistoryTruncation.truncate(store.messages(key), BUDGET));
            double p50 = millis(percentile(windowed, 50));
            System.out.printf("%-10d %8d %12.3f %12.3f %12.3f %22.3f%n", size, kept, p50,
                    millis((long) Arrays.stream(windowed).average().orElse(0)), millis(percentile(windowed, 99)),
                    millis(percentile(everything, 50)));
            first = first == 0 ? p50 : first;
            last = p50;
        }
        double ratio = last / first;
        System.out.printf("%n10,000-message load / 50-message load (p50): %.2fx (target: at most 2x) -> %s%n",
                ratio, ratio <= 2.0 ? "MET" : "NOT MET");
    }

    /** A conversation of user questions, tool calls, tool results and answers, about 100 tokens each. */
    private static SessionRef bench(int size) {
        return new SessionRef("lango", "bench", "bench-" + size);
    }

    private static void fill(SessionRows rows, SessionRef key, int count) {
        rows.insert(key, Map.of());
        long start = 1_700_000_000_000L;
        for (int i = 0; i < count; i++) {
            rows.append(key, message(i, start + i), StateDelta.NONE, Instant.ofEpochMilli(start + i));
        }
    }

    private static Message message(int i, long millis) {
        Instant at = Instant.ofEpochMilli(millis);
        String filler = "lorem ipsum dolor sit amet ".repeat(14);
        return switch (i % 4) {
            case 0 -> new Message("user", "question " + i + ": " + filler, at, "user", List.of());
            case 1 -> new Message("assistant", "", at, "lango-agent",
                    List.of(new ToolCall("call-" + i, "fs_read", "{\"path\":\"notes/" + i + ".txt\"}", null)));
            case 2 -> new Message("tool", "{\"content\":\"" + filler + "\"}", at, "lango-agent",
                    List.of(new ToolCall("call-" + (i - 1), "fs_read", null, "{\"content\":\"" + filler + "\"}")));
            default -> new Message("assistant", "answer " + i + ": " + filler, at, "lango-agent", List.of());
        };
    }

    private static long[] time(EntityManager em, int warmup, int measured, Supplier<List<Message>> load) {
        for (int i = 0; i < warmup; i++) {
            load.get();
            em.clear();
        }
        long[] nanos = new long[measured];
        for (int i = 0; i < measured; i++) {
            em.clear(); // every load reads the database, nothing from the persistence context
            long t0 = System.nanoTime();
            load.get();
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        return nanos;
    }

    private static long percentile(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }
}
