package ai.lango.prompt;

import java.util.regex.Pattern;

/**
 * Text from storage (a knowledge entry, a learning, an observation, a graph node, a retrieved
 * passage) as a prompt section shows it: data, never instructions. It is rendered as a label saying
 * what it is and where it came from, then the text as a quotation, every line starting with
 * {@code "> "}, so it cannot open a heading or a section of its own however it is written; control,
 * zero-width and direction-changing characters are removed. The fixed prompt (safety.md) tells the
 * model that quoted blocks are reference material.
 *
 * @param id     the fact's name, the same in every section ("knowledge:deploy-branch"): a fact is shown once per prompt
 * @param origin what it is and where it came from: whose, which tool, when
 * @param text   the stored text
 */
public record StoredText(String id, String origin, String text) {

    /** C0/C1 controls but tab and newline; zero-width characters; bidirectional overrides and isolates. */
    private static final Pattern INVISIBLE = Pattern.compile(
            "[\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\u200B-\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF]");

    /** The label, then the text quoted line by line. */
    public String render() {
        return render(text);
    }

    /** The same block with its text cut to {@code maxChars} (a marker says so). */
    String render(int maxChars) {
        return render(Bounded.text(text, maxChars));
    }

    private String render(String body) {
        StringBuilder block = new StringBuilder("[").append(label(origin)).append("]\n");
        for (String line : clean(body).split("\n", -1)) {
            block.append("> ").append(line).append('\n');
        }
        return block.toString();
    }

    /** The text without invisible characters, its line ends made plain. */
    static String clean(String text) {
        return INVISIBLE.matcher(text == null ? "" : text.replace("\r\n", "\n").replace('\r', '\n')).replaceAll("");
    }

    /** " on 2026-11-25" for a label; "" when the date is not known (a row not stored yet). */
    public static String on(java.time.Instant when) {
        return when == null ? "" : " on " + when.toString().substring(0, 10);
    }

    /** A label on one line that cannot close its brackets early. */
    static String label(String origin) {
        return clean(origin).replace('\n', ' ').replace('[', '(').replace(']', ')');
    }
}
