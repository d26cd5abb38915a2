package ai.lango.masking;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * What masking costs one streamed chunk: a model's answer of 20-character chunks through a {@link
 * StreamMasker} (what MaskedProvider does per chunk), and the JSON frame that carries a chunk through
 * {@link SecretScanner#mask} (what every /ws frame and SSE event goes through), for 0, 6, 56 and 506
 * known secrets, one in twenty chunks carrying the start of a secret's prefix. Prints p50, p99 and
 * p99.9 per chunk beside the bound (microseconds). Run: {@code mvn -Pbench -DskipTests test}.
 */
public final class MaskingBenchmark {

    private static final int CHUNKS = 2_000;
    private static final int WARMUP_ROUNDS = Integer.getInteger("bench.warmup", 200);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 200);

    private MaskingBenchmark() {
    }

    public static void main(String[] args) {
        System.out.printf("%-10s %-28s %10s %10s %10s   (bound: microseconds per chunk)%n", "secrets", "what", "p50 ns",
                "p99 ns", "p99.9 ns");
        for (int vault : new int[] {-1, 0, 50, 500}) {
            SecretScanner scanner = vault < 0 ? SecretScanner.EMPTY : SecretScanner.of(secrets(vault));
            String[] chunks = answer(new Random(7));
            long[] stream = new long[CHUNKS * ROUNDS];
            long[] frame = new long[CHUNKS * ROUNDS];
            int sink = 0;
            for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
                StreamMasker masker = new StreamMasker(() -> scanner);
                boolean measured = round >= WARMUP_ROUNDS;
                int base = (round - WARMUP_ROUNDS) * CHUNKS;
                for (int i = 0; i < CHUNKS; i++) {
                    long start = System.nanoTime();
                    String out = masker.next(chunks[i]);
                    long streamed = System.nanoTime();
                    String frameText = "{\"type\":\"event\",\"event\":\"agent.chunk\",\"payload\":{\"sessionKey\":\"s-1\",\"chunk\":\""
                            + out + "\"}}";
                    long middle = System.nanoTime();
                    String json = scanner.mask(frameText);
                    long end = System.nanoTime();
                    sink += json.length();
                    if (measured) {
                        stream[base + i] = streamed - start;
                        frame[base + i] = end - middle;
                    }
                }
                sink += masker.finish().length();
            }
            String label = vault < 0 ? "none" : String.valueOf(vault + 6);
            print(label, "stream chunk (provider)", stream);
            print(label, "frame (ws / SSE / JSON)", frame);
            if (sink == 42) {
                System.out.println();
            }
        }
    }

    private static void print(String secrets, String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%-10s %-28s %10d %10d %10d%n", secrets, what, sorted[sorted.length / 2],
                sorted[(int) (sorted.length * 0.99)], sorted[(int) (sorted.length * 0.999)]);
    }

    /** Six configured secrets and {@code vault} stored ones, of typical shapes (value → name). */
    private static Map<String, String> secrets(int vault) {
        Map<String, String> byValue = new LinkedHashMap<>();
        byValue.put("sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678", "lango.providers.openai.api-key");
        byValue.put("sk-ant-api03-ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210", "lango.providers.anthropic.api-key");
        byValue.put("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "lango.providers.gemini.api-key");
        byValue.put("operator-token-0123456789abcdef", "lango.auth.token");
        byValue.put("db-password-9f8e7d6c", "lango.db.password");
        byValue.put("correct horse battery staple", "lango.security.passphrase");
        Random random = new Random(11);
        for (int i = 0; i < vault; i++) {
            byValue.put("ghp_" + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()), "token-" + i);
        }
        return byValue;
    }

    /** An answer in 20-character chunks; one in twenty ends with a secret's first characters (held back, then let go). */
    private static String[] answer(Random random) {
        String words = "The deployment finished without errors and the service answers on port eight thousand. ";
        String[] chunks = new String[CHUNKS];
        for (int i = 0; i < CHUNKS; i++) {
            int from = random.nextInt(words.length() - 20);
            chunks[i] = i % 20 == 0 ? words.substring(from, from + 16) + "sk-p" : words.substring(from, from + 20);
        }
        return chunks;
    }
}
