package ai.lango.load;

import ai.lango.load.LoadBenchmark.Result;
import ai.lango.load.PostgresProbe.Activity;
import ai.lango.load.PostgresProbe.Stored;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * {@code -Dload.compare=scale}: one Lango server on PostgreSQL against two on the same database, in
 * alternating rounds, both servers up throughout. With two, sessions alternate between the servers;
 * in both, one pair of sessions in five shares its session key, so the pair's turns race for one
 * session (on two servers, each member on its own: the cross-server lease decides). After each
 * round the benchmark reads from PostgreSQL what the round cost (its activity counters per stored
 * question) and whether every session of the round holds question/answer pairs in order.
 */
final class ScaleComparison {

    private static final String DB_URL = System.getProperty("load.db.url", "jdbc:postgresql://127.0.0.1:5432/lango_load");
    private static final String DB_USER = System.getProperty("load.db.user", "postgres");
    private static final String DB_PASSWORD = System.getProperty("load.db.password", "");

    /** One round's database figures. */
    private record Cost(String label, Stored stored, Activity activity) {
        double perQuestion(long value) {
            return stored.questions() == 0 ? 0 : (double) value / stored.questions();
        }
    }

    private ScaleComparison() {
    }

    static void run(Path wlp, Path work, HttpClient http, Map<String, String> environment,
                    List<Result> one, List<Result> two) throws Exception {
        LoadBenchmark.copyServer(wlp, "lango-load-2");
        Map<String, String> first = new HashMap<>(environment);
        first.putAll(Map.of("LANGO_DB_KIND", "postgresql", "LANGO_DB_URL", DB_URL, "LANGO_DB_USER", DB_USER,
                "LANGO_DB_PASSWORD", DB_PASSWORD,
                // Servers sharing a database share its vault: the same passphrase opens it on each.
                "LANGO_SECURITY_PASSPHRASE", "lango-load-cluster-passphrase"));
        Map<String, String> second = new HashMap<>(first);
        int secondPort = LoadBenchmark.LANGO_PORT + 1;
        second.put("LANGO_HTTP_PORT", String.valueOf(secondPort));
        second.put("LANGO_DATA_DIR", work.resolve("lango-data-2").toString());
        System.out.println("scale: " + DB_URL + " as " + DB_USER);
        PostgresProbe probe = new PostgresProbe(DB_URL, DB_USER, DB_PASSWORD);
        List<Cost> costs = new ArrayList<>();
        try (Liberty a = Liberty.start(wlp, "lango-load", first);
             Liberty b = Liberty.start(wlp, "lango-load-2", second)) {
            URI wsA = URI.create("ws://127.0.0.1:" + LoadBenchmark.LANGO_PORT + "/ws");
            URI wsB = URI.create("ws://127.0.0.1:" + secondPort + "/ws");
            LoadBenchmark.awaitUp(http, URI.create("http://127.0.0.1:" + LoadBenchmark.LANGO_PORT + "/api/list-apps"), () -> true);
            LoadBenchmark.awaitUp(http, URI.create("http://127.0.0.1:" + secondPort + "/api/list-apps"), () -> true);
            Thread.sleep(PostgresProbe.STATS_SETTLE_MS);
            Activity before = probe.activity();
            for (int round = 1; round <= LoadBenchmark.ROUNDS; round++) {
                String single = "scale-" + System.nanoTime() + "-";
                one.add(LoadBenchmark.run("one server, round " + round,
                        session -> new WebSocketDriver(http, wsA, key(single, session)), LoadBenchmark.Probe.of(a)));
                before = settleAndCount(probe, costs, "one server, round " + round, single, before);

                String both = "scale-" + System.nanoTime() + "-";
                two.add(LoadBenchmark.run("two servers, round " + round,
                        session -> new WebSocketDriver(http, session % 2 == 0 ? wsA : wsB, key(both, session)),
                        LoadBenchmark.Probe.of(a).plus(LoadBenchmark.Probe.of(b))));
                before = settleAndCount(probe, costs, "two servers, round " + round, both, before);
            }
        }
        print(costs);
    }

    /** Sessions 0 and 1, 10 and 11, 20 and 21… share a key; the others have their own. */
    static String key(String prefix, int session) {
        int pair = session / 2;
        return pair % 5 == 0 ? prefix + "pair-" + pair : prefix + session;
    }

    private static Activity settleAndCount(PostgresProbe probe, List<Cost> costs, String label, String prefix,
                                           Activity before) throws Exception {
        Thread.sleep(PostgresProbe.STATS_SETTLE_MS);
        Activity after = probe.activity();
        Stored stored = probe.stored(prefix);
        costs.add(new Cost(label, stored, after.minus(before)));
        stored.notInPairs().stream().limit(5).forEach(s -> System.out.println(label + ": not in question/answer pairs: " + s));
        return after;
    }

    private static double medianPerQuestion(List<Cost> rounds, ToLongFunction<Activity> counter) {
        return LoadBenchmark.median(rounds.stream().mapToDouble(c -> c.perQuestion(counter.applyAsLong(c.activity()))).toArray());
    }

    private static void print(List<Cost> costs) {
        System.out.println();
        System.out.printf("%-42s %9s %9s %11s %12s %12s %12s %12s%n", "PostgreSQL, per stored question", "sessions",
                "questions", "not paired", "transactions", "rows read", "rows written", "blocks");
        for (Cost c : costs) {
            System.out.printf("%-42s %9d %9d %11d %12.2f %12.1f %12.2f %12.1f%n", c.label(), c.stored().sessions(),
                    c.stored().questions(), c.stored().notInPairs().size(), c.perQuestion(c.activity().transactions()),
                    c.perQuestion(c.activity().rowsRead()), c.perQuestion(c.activity().rowsWritten()),
                    c.perQuestion(c.activity().blocksTouched()));
        }
        for (String side : List.of("one server", "two servers")) {
            List<Cost> mine = costs.stream().filter(c -> c.label().startsWith(side + ",")).toList();
            System.out.printf("%s, median of rounds per stored question: %.2f transactions, %.1f rows read, %.2f rows written,"
                            + " %.1f blocks; sessions not in question/answer pairs: %d of %d%n", side,
                    medianPerQuestion(mine, Activity::transactions), medianPerQuestion(mine, Activity::rowsRead),
                    medianPerQuestion(mine, Activity::rowsWritten), medianPerQuestion(mine, Activity::blocksTouched),
                    mine.stream().mapToInt(c -> c.stored().notInPairs().size()).sum(),
                    mine.stream().mapToInt(c -> c.stored().sessions()).sum());
        }
        System.out.println("(PostgreSQL's own counters from pg_stat_database over each round, warm-up included, divided by"
                + " the questions the round stored; target: two servers no more than one, and no session out of pairs)");
    }
}
