package ai.lango.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Retrieval quality and speed of Lango's own retrieval classes on BEIR SciFact (5,183 abstracts,
 * 300 test claims, binary judgements): nDCG@10 and Recall@10 of the local model alone, of BM25
 * alone and of the hybrid the server uses, beside the published references; the fusion constant;
 * indexing throughput and query latency (embedding the query and searching) on this machine.
 *
 * <p>mvn -Pbench -DskipTests test-compile exec:exec@scifact (data: ../shared/data/scifact)
 */
public final class SciFactBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> GROUP = Set.of(Document.KNOWLEDGE);
    private static final int DEPTH = 50;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "../shared/data/scifact");
        Map<String, String> corpus = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("corpus.jsonl"))) {
            JsonNode doc = JSON.readTree(line);
            corpus.put(doc.path("_id").asText(), (doc.path("title").asText() + " " + doc.path("text").asText()).strip());
        }
        Map<String, String> queries = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("queries.jsonl"))) {
            JsonNode q = JSON.readTree(line);
            queries.put(q.path("_id").asText(), q.path("text").asText());
        }
        Map<String, Set<String>> relevant = qrels(dir.resolve("qrels-test.tsv"));
        System.out.printf(Locale.ROOT, "SciFact: %,d documents, %d queries, %d judgements%n", corpus.size(), queries.size(),
                relevant.values().stream().mapToInt(Set::size).sum());

        long loadStart = System.nanoTime();
        LocalEmbedder embedder = new LocalEmbedder(Path.of("target", "djl-cache"), null);
        System.out.printf(Locale.ROOT, "model loaded in %.1f s%n", (System.nanoTime() - loadStart) / 1e9);

        // Indexing as the server does it: batches of 32, the first EMBEDDED_CHARS characters embedded, all of the text by keywords.
        HybridIndex index = new HybridIndex();
        List<String> ids = new ArrayList<>(corpus.keySet());
        long indexStart = System.nanoTime();
        long embedNanos = 0;
        for (int from = 0; from < ids.size(); from += Retrieval.BATCH) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + Retrieval.BATCH));
            long t = System.nanoTime();
            List<float[]> vectors = embedder.embed(batch.stream().map(id -> head(corpus.get(id))).toList());
            embedNanos += System.nanoTime() - t;
            for (int i = 0; i < batch.size(); i++) {
                index.put(new Document(Document.KNOWLEDGE, batch.get(i), null, corpus.get(batch.get(i))), vectors.get(i));
            }
        }
        index.refresh();
        double indexSeconds = (System.nanoTime() - indexStart) / 1e9;
        System.out.printf(Locale.ROOT, "indexed %,d documents in %.1f s: %.1f documents/s (embedding %.1f s of it)%n",
                ids.size(), indexSeconds, ids.size() / indexSeconds, embedNanos / 1e9);

        Map<String, float[]> queryVectors = new HashMap<>();
        queries.forEach((qid, text) -> queryVectors.put(qid, embedder.embed(List.of(text)).get(0)));

        Map<String, List<String>> vector = new HashMap<>();
        Map<String, List<String>> keyword = new HashMap<>();
        Map<String, List<String>> hybrid = new HashMap<>();
        for (Map.Entry<String, String> q : queries.entrySet()) {
            vector.put(q.getKey(), sources(index.nearest(queryVectors.get(q.getKey()), GROUP, DEPTH, -1)));
            keyword.put(q.getKey(), sources(index.keywordRanking(q.getValue(), GROUP, DEPTH)));
            hybrid.put(q.getKey(), index.search(q.getValue(), queryVectors.get(q.getKey()), GROUP, null, 10).stream()
                    .map(Hit::sourceId).toList());
        }

        double vectorNdcg = mean(vector, relevant, SciFactBenchmark::ndcg10);
        double keywordNdcg = mean(keyword, relevant, SciFactBenchmark::ndcg10);
        double hybridNdcg = mean(hybrid, relevant, SciFactBenchmark::ndcg10);
        System.out.println();
        System.out.println("| ranking | nDCG@10 here | Recall@10 here | published nDCG@10 |");
        System.out.println("|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| all-MiniLM-L6-v2 (quantized, in the server) alone | %.4f | %.4f | 0.645 (all-MiniLM-L6-v2, BEIR/MTEB) |%n",
                vectorNdcg, mean(vector, relevant, SciFactBenchmark::recall10));
        System.out.printf(Locale.ROOT, "| BM25 (Lucene, English analyser) alone | %.4f | %.4f | about 0.665 (BM25, BEIR) |%n",
                keywordNdcg, mean(keyword, relevant, SciFactBenchmark::recall10));
        System.out.printf(Locale.ROOT, "| hybrid, reciprocal rank fusion k=%d (what Lango runs) | %.4f | %.4f | 0.713 (bge-small-en-v1.5, MTEB) |%n",
                Fusion.K, hybridNdcg, mean(hybrid, relevant, SciFactBenchmark::recall10));

        System.out.println();
        System.out.println("Fusion constant (both rankings to depth " + DEPTH + "):");
        for (int k : new int[] {10, 30, 60}) {
            Map<String, List<String>> fused = new HashMap<>();
            for (String qid : queries.keySet()) {
                fused.put(qid, Fusion.reciprocalRank(List.of(vector.get(qid), keyword.get(qid)), k).stream()
                        .map(Fusion.Scored::id).toList());
            }
            System.out.printf(Locale.ROOT, "  k=%d: nDCG@10 %.4f%n", k, mean(fused, relevant, SciFactBenchmark::ndcg10));
        }

        // Latency as a search in the server sees it: embed the query, then the hybrid search.
        List<String> texts = new ArrayList<>(queries.values());
        for (String text : texts) {
            index.search(text, embedder.embed(List.of(text)).get(0), GROUP, null, 5);
        }
        long[] total = new long[texts.size()];
        long[] search = new long[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            long t0 = System.nanoTime();
            float[] v = embedder.embed(List.of(texts.get(i))).get(0);
            long t1 = System.nanoTime();
            index.search(texts.get(i), v, GROUP, null, 5);
            long t2 = System.nanoTime();
            total[i] = t2 - t0;
            search[i] = t2 - t1;
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "query latency (embed + hybrid search over %,d documents), %d queries: p50 %.1f ms, p99 %.1f ms"
                        + " (search alone p50 %.1f ms, p99 %.1f ms)%n", ids.size(), texts.size(), percentile(total, 50),
                percentile(total, 99), percentile(search, 50), percentile(search, 99));

        boolean quality = hybridNdcg > 0.645 && hybridNdcg > 0.665;
        boolean speed = percentile(total, 50) < 20;
        System.out.printf(Locale.ROOT, "%nTarget: hybrid ahead of the MiniLM (0.645) and BM25 (0.665) references: %s (%.4f);"
                + " query p50 under 20 ms: %s (%.1f ms)%n", quality ? "met" : "MISSED", hybridNdcg, speed ? "met" : "MISSED",
                percentile(total, 50));
        index.close();
    }

    private static String head(String text) {
        return text.length() <= Retrieval.EMBEDDED_CHARS ? text : text.substring(0, Retrieval.EMBEDDED_CHARS);
    }

    private static List<String> sources(List<String> nodes) {
        return nodes.stream().map(n -> n.substring(n.indexOf(':') + 1)).toList();
    }

    private static Map<String, Set<String>> qrels(Path file) throws IOException {
        Map<String, Set<String>> relevant = new HashMap<>();
        List<String> lines = Files.readAllLines(file);
        for (String line : lines.subList(1, lines.size())) {
            String[] parts = line.split("\t");
            if (parts.length == 3 && Integer.parseInt(parts[2].strip()) > 0) {
                relevant.computeIfAbsent(parts[0], q -> new HashSet<>()).add(parts[1]);
            }
        }
        return relevant;
    }

    private interface Metric {
        double score(List<String> ranking, Set<String> relevant);
    }

    private static double mean(Map<String, List<String>> rankings, Map<String, Set<String>> relevant, Metric metric) {
        return relevant.entrySet().stream()
                .mapToDouble(e -> metric.score(rankings.getOrDefault(e.getKey(), List.of()), e.getValue())).average().orElse(0);
    }

    /** Binary-relevance nDCG at 10: DCG = Σ rel_i / log2(i + 1) over ranks 1..10, ideal from min(|relevant|, 10). */
    static double ndcg10(List<String> ranking, Set<String> relevant) {
        double dcg = 0;
        for (int i = 0; i < Math.min(10, ranking.size()); i++) {
            if (relevant.contains(ranking.get(i))) {
                dcg += 1 / log2(i + 2);
            }
        }
        double ideal = 0;
        for (int i = 0; i < Math.min(10, relevant.size()); i++) {
            ideal += 1 / log2(i + 2);
        }
        return ideal == 0 ? 0 : dcg / ideal;
    }

    static double recall10(List<String> ranking, Set<String> relevant) {
        long found = ranking.stream().limit(10).filter(relevant::contains).count();
        return relevant.isEmpty() ? 0 : (double) found / relevant.size();
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    private static double percentile(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
