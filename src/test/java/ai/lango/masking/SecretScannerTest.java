package ai.lango.masking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SecretScannerTest {

    private static SecretScanner scanner(String... valueAndName) {
        Map<String, String> byValue = new LinkedHashMap<>();
        for (int i = 0; i < valueAndName.length; i += 2) {
            byValue.put(valueAndName[i], valueAndName[i + 1]);
        }
        return SecretScanner.of(byValue);
    }

    /** Masks {@code text} as a stream cut at the given positions. */
    private static String streamed(SecretScanner scanner, String text, int... cuts) {
        StreamMasker masker = new StreamMasker(() -> scanner);
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int cut : cuts) {
            out.append(masker.next(text.substring(from, cut)));
            from = cut;
        }
        out.append(masker.next(text.substring(from)));
        return out.append(masker.finish()).toString();
    }

    @Test
    void aSecretBecomesItsNameWhereverItOccurs() {
        SecretScanner scanner = scanner("sk-live-123456", "openai");
        assertEquals("key [SECRET:openai] and again [SECRET:openai].", scanner.mask("key sk-live-123456 and again sk-live-123456."));
    }

    @Test
    void valuesShorterThanFourCharactersAreNotSearchedFor() {
        SecretScanner scanner = scanner("abc", "short", "abcd", "four");
        assertEquals("abc [SECRET:four]", scanner.mask("abc abcd"));
    }

    @Test
    void overlappingSecretsAreMaskedLongestFirstTheSameWayEveryTime() {
        // Whatever order they are known in, the longest value that matches at a position wins.
        for (List<String> order : List.of(List.of("abcd", "abcdef", "cdefgh"), List.of("cdefgh", "abcdef", "abcd"),
                List.of("abcdef", "cdefgh", "abcd"))) {
            Map<String, String> byValue = new LinkedHashMap<>();
            order.forEach(v -> byValue.put(v, v.equals("abcd") ? "short" : v.equals("abcdef") ? "long" : "other"));
            SecretScanner scanner = SecretScanner.of(byValue);
            assertEquals("x[SECRET:long]gh [SECRET:short]x [SECRET:other]", scanner.mask("xabcdefgh abcdx cdefgh"), order.toString());
        }
    }

    @Test
    void aSecretIsFoundInItsJsonEscapedFormToo() {
        SecretScanner scanner = scanner("pa\"ss\\word", "db");
        assertEquals("{\"p\":\"[SECRET:db]\"}", scanner.mask("{\"p\":\"pa\\\"ss\\\\word\"}"));
        assertEquals("[SECRET:db]", scanner.mask("pa\"ss\\word"));
    }

    @Test
    void aStreamSplitAtEveryBoundaryIsMaskedAsTheWholeText() {
        SecretScanner scanner = scanner("sk-live-123456", "openai", "sk-live", "prefix", "123456789", "digits", "ab\"cd", "quoted");
        String text = "a sk-live-123456 b sk-live c 123456789 d sk-live-12345 e sk-li ab\"cd ab\\\"cd 1234567";
        String whole = scanner.mask(text);
        for (int i = 0; i <= text.length(); i++) {
            for (int j = i; j <= text.length(); j++) {
                assertEquals(whole, streamed(scanner, text, i, j), "cut at " + i + " and " + j);
            }
        }
    }

    @Test
    void randomStreamsAreMaskedAsTheirWholeTextAndNoSecretPasses() {
        Random random = new Random(42);
        String alphabet = "abcs-k12";
        for (int round = 0; round < 2000; round++) {
            Map<String, String> byValue = new LinkedHashMap<>();
            int secrets = 1 + random.nextInt(4);
            for (int s = 0; s < secrets; s++) {
                byValue.put(word(random, alphabet, 4 + random.nextInt(5)), "s" + s);
            }
            SecretScanner scanner = SecretScanner.of(byValue);
            String text = word(random, alphabet, random.nextInt(60));
            int[] cuts = random.ints(random.nextInt(8), 0, text.length() + 1).sorted().toArray();
            String whole = scanner.mask(text);
            assertEquals(whole, streamed(scanner, text, cuts), text + " " + byValue);
            for (String value : byValue.keySet()) {
                assertFalse(whole.replaceAll("\\[SECRET:s\\d]", "|").contains(value), value + " passed in " + whole);
            }
        }
    }

    private static String word(Random random, String alphabet, int length) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }

    @Test
    void aStreamHoldsBackAFixedWindowWhateverTheTextSoChunkBoundariesTellNothing() {
        // The probe as it was found: a 10-character chunk ending with the first 5 characters of a secret, and one of
        // the same length ending otherwise; what arrives before the next chunk must not tell them apart.
        SecretScanner scanner = scanner("sk-live-123456", "openai");
        for (String chunk : List.of("hello sk-l", "hello xyzw", "0123456789")) {
            StreamMasker masker = new StreamMasker(() -> scanner);
            assertEquals("", masker.next(chunk), "a chunk shorter than the window is held whatever it ends with: " + chunk);
            String next = masker.next("the rest of a long answer, thirty-odd characters");
            assertEquals(chunk.length() + 48 - StreamMasker.window(scanner), next.length(), chunk);
            assertTrue(masker.holding());
        }
        StreamMasker masker = new StreamMasker(() -> scanner);
        StringBuilder out = new StringBuilder(masker.next("hello sk-li"));
        out.append(masker.next("ve-123456 done"));
        assertEquals("hello [SECRET:openai] done", out + masker.finish(), "a whole secret is still masked");
        assertEquals(31, StreamMasker.window(scanner), "the longest secret rounded up to 32, less one");
    }

    @Test
    void whatAStreamSendsDependsOnChunkLengthsAloneUntilAWholeSecretAppears() {
        // Random secrets and random streams: whatever a chunk holds, as long as no whole secret is in the stream,
        // each chunk lets out exactly as much as a stream of the same chunk lengths with none of the secrets' text.
        Random random = new Random(5);
        String alphabet = "abcs-k12";
        for (int round = 0; round < 2000; round++) {
            Map<String, String> byValue = new LinkedHashMap<>();
            for (int s = 0; s < 1 + random.nextInt(4); s++) {
                byValue.put(word(random, alphabet, 8 + random.nextInt(40)), "s" + s);
            }
            SecretScanner scanner = SecretScanner.of(byValue);
            StreamMasker guessing = new StreamMasker(() -> scanner);
            StreamMasker plain = new StreamMasker(() -> scanner);
            StringBuilder stream = new StringBuilder();
            for (int c = 0; c < 12; c++) {
                String secret = List.copyOf(byValue.keySet()).get(random.nextInt(byValue.size()));
                // a guess: a prefix of a secret (never the whole of it) after some random text
                String guess = secret.substring(0, 1 + random.nextInt(secret.length() - 1));
                String chunk = word(random, alphabet, random.nextInt(6)) + guess;
                stream.append(chunk);
                if (byValue.keySet().stream().anyMatch(stream.toString()::contains)) {
                    break;
                }
                assertEquals(plain.next("x".repeat(chunk.length())).length(), guessing.next(chunk).length(), chunk + " " + byValue);
            }
        }
    }

    @Test
    void aLongSecretIsMaskedInAStreamPieceByPieceAsOnePlaceholderAndNoStreamHoldsBackMoreThanThirtyOneCharacters() {
        String pem = "-----BEGIN PRIVATE KEY-----\n" + "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7".repeat(6)
                + "\n-----END PRIVATE KEY-----";
        SecretScanner pieces = SecretScanner.inPieces(Map.of(pem, "[SECRET:key]"));
        assertEquals(31, StreamMasker.window(pieces));
        for (int[] cuts : new int[][] {{}, {10, 40, 41, 200, 250}, {7, 8, 9, 30, 31, 33, 64, 65}}) {
            String streamed = streamed(pieces, "here: " + pem + " done", cuts);
            assertEquals("here: [SECRET:key] done", streamed, java.util.Arrays.toString(cuts));
        }
        String middle = pem.substring(100, 180);
        String alone = streamed(pieces, "just " + middle + ".", 20);
        assertFalse(alone.contains(middle.substring(20, 40)), "the middle of a long secret is masked too: " + alone);
        assertTrue(alone.startsWith("just ") && alone.contains("[SECRET:key]"), alone);
        for (String piece : SecretScanner.pieces(pem)) {
            assertTrue(piece.length() >= 16 && piece.length() <= 31, piece);
        }
        assertEquals(pem, String.join("", SecretScanner.pieces(pem)), "the pieces are the value, in order, without overlap");
    }

    @Test
    void aSecretStoredMidStreamIsMaskedFromThen() {
        SecretScanner[] known = {SecretScanner.EMPTY};
        StreamMasker masker = new StreamMasker(() -> known[0]);
        assertEquals("first tok-9876 ", masker.next("first tok-9876 "));
        known[0] = scanner("tok-9876", "t");
        assertEquals("then [SECRET:t]", masker.next("then tok-9876") + masker.finish());
    }
}
