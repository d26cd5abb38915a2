package ai.lango.browser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Snapshot text that fits a prompt, and what a tool's target names. */
final class Snapshots {

    /** A ref from an AI snapshot, as the model may copy it: e12, f1e3, ref=e12, [ref=e12]. */
    private static final Pattern REF = Pattern.compile("\\[?(?:ref=)?((?:f\\d+)?e\\d+)]?");

    private Snapshots() {
    }

    /**
     * The snapshot if it has at most {@code max} characters; else its first lines up to that, and a
     * note on how much was left out and how to read one part.
     */
    static String cap(String snapshot, int max) {
        if (snapshot.length() <= max) {
            return snapshot;
        }
        int cut = snapshot.lastIndexOf('\n', max);
        if (cut < max / 2) {
            cut = max;
        }
        return snapshot.substring(0, cut) + "\n[snapshot cut: " + cut + " of " + snapshot.length() + " characters shown."
                + " To read one part, call browser_snapshot with target set to the ref of an element around it (such"
                + " as e12) or a CSS selector (such as main or #results).]";
    }

    /** The Playwright selector for a target: an aria-ref for a snapshot's ref, else the CSS selector as given. */
    static String selector(String target) {
        String t = target.strip();
        Matcher ref = REF.matcher(t);
        return ref.matches() ? "aria-ref=" + ref.group(1) : t;
    }
}
