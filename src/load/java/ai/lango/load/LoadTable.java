package ai.lango.load;

import ai.lango.load.LoadBenchmark.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The Lango-against-ADK run as the Markdown table docs/benchmarks.md shows, with the warm rounds'
 * medians against the targets: written to {@code load-table.md} in the work directory, and
 * into the page itself between its markers when {@code -Dload.docs=<path of the page>} is given.
 */
final class LoadTable {

    static final String BEGIN = "<!-- load-table:begin (written by the load benchmark, -Dload.docs) -->";
    static final String END = "<!-- load-table:end -->";

    private LoadTable() {
    }

    static void write(Path work, List<Result> lango, List<Result> adk, List<Integer> sessionCounts, int rounds,
                      int warmFrom, IdleSockets.Result idle) throws IOException {
        String table = table(lango, adk, sessionCounts, rounds, warmFrom, idle);
        Files.writeString(work.resolve("load-table.md"), table);
        System.out.println();
        System.out.println(table);
        String docs = System.getProperty("load.docs", "");
        if (!docs.isBlank()) {
            Path page = Path.of(docs);
            String text = Files.readString(page);
            int begin = text.indexOf(BEGIN);
            int end = text.indexOf(END);
            if (begin < 0 || end < begin) {
                throw new IllegalStateException(page + " has no " + BEGIN + " … " + END + " markers");
            }
            Files.writeString(page, text.substring(0, begin + BEGIN.length()) + "\n" + table + text.substring(end));
            System.out.println("load: the table is written into " + page);
        }
    }

    static String table(List<Result> lango, List<Result> adk, List<Integer> sessionCounts, int rounds, int warmFrom,
                        IdleSockets.Result idle) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%s, %d cores, Java %s; each round's load average (1 min) at its end%n%n",
                LocalDate.now(ZoneOffset.UTC), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
        out.append("| sessions, round | turns/s Lango / ADK | +ovh to first chunk p50 | chunk-gap +ovh p99 |"
                + " last chunk to the end p50 | CPU per turn | errors | load |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < lango.size(); i++) {
            Result ours = lango.get(i);
            Result theirs = adk.get(i);
            out.append(String.format("| %d, %d%s | %.1f / %.1f | %.1f / %.1f ms | %.2f / %.2f ms | %.1f / %.1f ms | %.2f / %.2f ms | %d / %d | %.1f |%n",
                    sessionCounts.get(i / rounds), i % rounds + 1, i % rounds + 1 >= warmFrom ? " (warm)" : "",
                    ours.turnsPerSecond(), theirs.turnsPerSecond(),
                    ours.firstChunkOverhead().millis(50), theirs.firstChunkOverhead().millis(50),
                    ours.gapOverhead().millis(99), theirs.gapOverhead().millis(99),
                    ours.tail().millis(50), theirs.tail().millis(50),
                    ours.cpuMillisPerTurn(), theirs.cpuMillisPerTurn(), ours.errors(), theirs.errors(),
                    Math.max(ours.load(), theirs.load())));
        }
        out.append(capacity(lango, adk, sessionCounts, rounds, warmFrom, idle));
        return out.toString();
    }

    /**
     * The capacity table: per session count, the warm rounds' medians side by side, the session count at which
     * Lango's first-chunk overhead p99 passes 100 ms, idle sockets per GiB, and issue 61's targets.
     */
    static String capacity(List<Result> lango, List<Result> adk, List<Integer> sessionCounts, int rounds, int warmFrom,
                           IdleSockets.Result idle) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nCapacity, warm rounds %d–%d, medians (Lango / ADK):%n%n", warmFrom, rounds));
        out.append("| sessions | turns/s | +ovh to first chunk p50 | +ovh to first chunk p99 | chunk-gap +ovh p99 |"
                + " last chunk to the end p50 | CPU per turn | RSS |\n");
        out.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        String passes = null;
        double lastP99 = Double.NaN;
        StringBuilder targets = new StringBuilder();
        for (int s = 0; s < sessionCounts.size(); s++) {
            int sessions = sessionCounts.get(s);
            List<Result> ours = lango.subList(s * rounds + warmFrom - 1, (s + 1) * rounds);
            List<Result> theirs = adk.subList(s * rounds + warmFrom - 1, (s + 1) * rounds);
            double tps = median(ours, Result::turnsPerSecond);
            double tpsAdk = median(theirs, Result::turnsPerSecond);
            double first = median(ours, r -> r.firstChunkOverhead().millis(50));
            double firstAdk = median(theirs, r -> r.firstChunkOverhead().millis(50));
            double first99 = median(ours, r -> r.firstChunkOverhead().millis(99));
            double cpu = median(ours, Result::cpuMillisPerTurn);
            double cpuAdk = median(theirs, Result::cpuMillisPerTurn);
            double rss = median(ours, r -> r.rssKb() / 1024.0);
            double rssAdk = median(theirs, r -> r.rssKb() / 1024.0);
            double tail = median(ours, r -> r.tail().millis(50));
            out.append(String.format("| %d | %.1f / %.1f (%.2f×) | %.1f / %.1f ms | %.1f / %.1f ms | %.1f / %.1f ms |"
                            + " %.1f / %.1f ms | %.2f / %.2f ms (%.2f×) | %.0f / %.0f MB |%n",
                    sessions, tps, tpsAdk, tps / tpsAdk, first, firstAdk, first99,
                    median(theirs, r -> r.firstChunkOverhead().millis(99)), median(ours, r -> r.gapOverhead().millis(99)),
                    median(theirs, r -> r.gapOverhead().millis(99)), tail, median(theirs, r -> r.tail().millis(50)),
                    cpu, cpuAdk, cpu / cpuAdk, rss, rssAdk));
            if (passes == null && first99 > 100) {
                passes = sessions + " sessions (" + String.format("%.0f", first99) + " ms; "
                        + (s == 0 ? "the fewest measured" : String.format("%.0f ms at %d", lastP99, sessionCounts.get(s - 1))) + ")";
            }
            lastP99 = first99;
            int errors = ours.stream().mapToInt(Result::errors).sum();
            if (sessions == 100) {
                targets.append(String.format("- 100 sessions: CPU per turn %.2f× ADK's (≤ 0.7×: %s); RSS %.0f / %.0f MB (≤ ADK's: %s);"
                                + " last chunk to the end %.1f ms p50 (≤ 5 ms: %s); errors %d (0: %s)%n",
                        cpu / cpuAdk, met(cpu / cpuAdk <= 0.7), rss, rssAdk, met(rss <= rssAdk), tail, met(tail <= 5),
                        errors, met(errors == 0)));
            } else if (sessions == 400) {
                targets.append(String.format("- 400 sessions: CPU per turn %.2f× ADK's (≤ 0.8×: %s); turns/s %.2f× ADK's (≥ 1.2×: %s);"
                                + " first chunk +%.1f / +%.1f ms p50 (≤ ADK's: %s); errors %d (0: %s)%n",
                        cpu / cpuAdk, met(cpu / cpuAdk <= 0.8), tps / tpsAdk, met(tps / tpsAdk >= 1.2), first, firstAdk,
                        met(first <= firstAdk), errors, met(errors == 0)));
            } else {
                targets.append(String.format("- %d sessions: CPU per turn %.2f× ADK's, turns/s %.2f×, errors %d%n",
                        sessions, cpu / cpuAdk, tps / tpsAdk, errors));
            }
        }
        out.append(String.format("%nLango's first-chunk overhead p99 passes 100 ms at: %s.%n",
                passes != null ? passes : "none of the counts measured (" + String.format("%.0f", lastP99) + " ms at "
                        + sessionCounts.get(sessionCounts.size() - 1) + ")"));
        if (idle != null) {
            out.append(String.format("%nIdle /ws sockets (opened, never a frame, on the server as started): %,d held at %,d MB RSS (%,d MB"
                            + " before them; %.0f bytes of RSS and %.0f of live heap each): **%,.0f idle sockets per GiB**;"
                            + " /health %s in %.0f ms; a turn beside them %s.%n",
                    idle.sockets(), idle.rssAfterKb() / 1024, idle.rssBeforeKb() / 1024, idle.rssBytesEach(), idle.heapBytesEach(),
                    idle.perGibAdded(), idle.healthStatus(), idle.healthMillis(), idle.turnAnswered() ? "answered" : "did not answer"));
            targets.append(String.format("- %,d idle sockets: RSS %,d MB (≤ 1,024 MB: %s), /health %s in %.0f ms (UP, < 500 ms: %s),"
                            + " a turn beside them %s%n", idle.sockets(), idle.rssAfterKb() / 1024,
                    met(idle.rssAfterKb() <= 1024 * 1024), idle.healthStatus(), idle.healthMillis(),
                    met(idle.healthStatus().endsWith("UP") && idle.healthMillis() < 500), idle.turnAnswered() ? "answered" : "**did not answer**"));
        }
        out.append("\nTargets (issue 61):\n\n").append(targets);
        return out.toString();
    }

    private static String met(boolean met) {
        return met ? "met" : "**not met**";
    }

    private static double median(List<Result> results, ToDoubleFunction<Result> figure) {
        return LoadBenchmark.median(results.stream().mapToDouble(figure).toArray());
    }
}
