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
                      int warmFrom) throws IOException {
        String table = table(lango, adk, sessionCounts, rounds, warmFrom);
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

    static String table(List<Result> lango, List<Result> adk, List<Integer> sessionCounts, int rounds, int warmFrom) {
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
        out.append("\nWarm rounds, medians (Lango / ADK; target):\n\n");
        for (int s = 0; s < sessionCounts.size(); s++) {
            List<Result> ours = lango.subList(s * rounds + warmFrom - 1, (s + 1) * rounds);
            List<Result> theirs = adk.subList(s * rounds + warmFrom - 1, (s + 1) * rounds);
            double throughput = median(ours, Result::turnsPerSecond) / median(theirs, Result::turnsPerSecond);
            double first = median(ours, r -> r.firstChunkOverhead().millis(50));
            double firstAdk = median(theirs, r -> r.firstChunkOverhead().millis(50));
            double gap = median(ours, r -> r.gapOverhead().millis(99));
            double cpu = median(ours, Result::cpuMillisPerTurn);
            double cpuAdk = median(theirs, Result::cpuMillisPerTurn);
            int errors = ours.stream().mapToInt(Result::errors).sum();
            out.append(String.format("- %d sessions: throughput %.3f× ADK (≥ 1.0: %s); first chunk +%.1f / +%.1f ms"
                            + " (≤ ADK's and ≤ 10 ms: %s); chunk gap +%.2f ms p99 (≤ 2 ms: %s); CPU per turn %.2f / %.2f ms"
                            + " (≤ ADK's: %s); errors %d (0: %s)%n",
                    sessionCounts.get(s), throughput, met(throughput >= 1.0), first, firstAdk,
                    met(first <= firstAdk && first <= 10), gap, met(gap <= 2), cpu, cpuAdk, met(cpu <= cpuAdk),
                    errors, met(errors == 0)));
        }
        return out.toString();
    }

    private static String met(boolean met) {
        return met ? "met" : "**not met**";
    }

    private static double median(List<Result> results, ToDoubleFunction<Result> figure) {
        return LoadBenchmark.median(results.stream().mapToDouble(figure).toArray());
    }
}
