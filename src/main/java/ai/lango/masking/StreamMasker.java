package ai.lango.masking;

import java.util.function.Supplier;

/**
 * Masks one stream of text chunks (a model's answer) as if it were one text: a secret split across
 * two chunks is still replaced. It holds back a fixed window of the stream's latest characters,
 * whatever they are — the longest secret (or {@linkplain SecretScanner#pieces piece} of one, at most
 * 31 characters), rounded up to 32, less one: 31 whenever there is a secret — and {@link #finish} lets
 * it go. What a reader gets, and
 * where the chunks they get are cut, so depends on the lengths of the text alone, never on whether it
 * begins some secret: holding back only what could still become a secret told a reader, chunk by chunk,
 * which guesses were a secret's start. One per stream; not for several threads.
 */
public final class StreamMasker {

    /** The window is the longest value rounded up to this, less one: its length tells little of any secret's. */
    private static final int WINDOW_STEP = 32;

    private final Supplier<SecretScanner> secrets;
    private String held = "";
    /** The replacement what was sent so far ends with (null: it ends with text). */
    private final String[] last = new String[1];

    /** @param secrets the secrets known now, asked at every chunk: one stored mid-stream is masked from then on */
    public StreamMasker(Supplier<SecretScanner> secrets) {
        this.secrets = secrets;
    }

    /** What of the stream so far may be sent now, masked (possibly empty). */
    public String next(String chunk) {
        SecretScanner scanner = secrets.get();
        if (held.isEmpty() && scanner.isEmpty()) {
            return chunk;
        }
        String text = held.isEmpty() ? chunk : held + chunk;
        int cut = Math.max(0, text.length() - window(scanner));
        StringBuilder out = new StringBuilder(cut + 16);
        held = text.substring(scanner.scanTo(text, cut, out, last));
        return out.toString();
    }

    /** How many of the latest characters a stream holds back: every secret that starts before them lies whole in the text. */
    static int window(SecretScanner scanner) {
        int longest = scanner.longest();
        return longest == 0 ? 0 : (longest + WINDOW_STEP - 1) / WINDOW_STEP * WINDOW_STEP - 1;
    }

    /** The rest, at the stream's end: what was held back, masked. */
    public String finish() {
        StringBuilder rest = new StringBuilder(held.length());
        secrets.get().scanTo(held, held.length(), rest, last);
        held = "";
        return rest.toString();
    }

    /** Whether text is held back waiting for the next chunk. */
    public boolean holding() {
        return !held.isEmpty();
    }
}
