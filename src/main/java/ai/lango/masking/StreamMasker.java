package ai.lango.masking;

import java.util.function.Supplier;

/**
 * Masks one stream of text chunks (a model's answer) as if it were one text: a secret split across
 * two chunks is still replaced. Only what could still become a secret is held back (never more than
 * the longest secret less one character), and {@link #finish} lets it go, so a stream stays a stream.
 * One per stream; not for several threads.
 */
public final class StreamMasker {

    private final Supplier<SecretScanner> secrets;
    private String held = "";

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
        StringBuilder out = new StringBuilder(text.length() + 16);
        int heldFrom = scanner.scan(text, false, out);
        held = text.substring(heldFrom);
        return out.toString();
    }

    /** The rest, at the stream's end: what was held back, masked. */
    public String finish() {
        String rest = secrets.get().mask(held);
        held = "";
        return rest;
    }

    /** Whether text is held back waiting for the next chunk. */
    public boolean holding() {
        return !held.isEmpty();
    }
}
