package ai.lango.adk.runner;

import ai.lango.turn.Names;
import com.google.adk.events.Event;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.List;

/**
 * The answer's text from a run's events, never twice: when the run streamed, the partial chunks
 * are the text (the final event repeats them); otherwise the final events' text is. When several
 * agents speak in one run, each one's text starts a new paragraph.
 */
final class TextCollector {

    private final Text partialText = new Text();
    private final Text finalText = new Text();
    private boolean sawPartial;
    /** What the model streamed since its last whole response (which repeats its chunks, and is stored): not stored yet. */
    private final StringBuilder unstored = new StringBuilder();
    private String unstoredAuthor;

    void accept(Event event) {
        if (Names.USER_AUTHOR.equals(event.author())) {
            return;
        }
        String text = text(event);
        if (event.partial().orElse(false)) {
            sawPartial = true;
            partialText.append(event.author(), text);
            if (!event.author().equals(unstoredAuthor)) {
                unstored.setLength(0);
                unstoredAuthor = event.author();
            }
            unstored.append(text);
        } else {
            finalText.append(event.author(), text);
            unstored.setLength(0);
        }
    }

    /** The text a run cut off in the middle of a streamed response had written of it, and who wrote it. */
    java.util.Optional<LangoRunner.Said> unstored() {
        return unstored.toString().isBlank() ? java.util.Optional.empty()
                : java.util.Optional.of(new LangoRunner.Said(unstoredAuthor, unstored.toString()));
    }

    /** Text by author: a paragraph break where the speaking agent changes. */
    private static final class Text {
        private final StringBuilder text = new StringBuilder();
        private String author;

        void append(String by, String more) {
            if (more.isEmpty()) {
                return;
            }
            if (author != null && !author.equals(by) && !text.isEmpty()) {
                text.append("\n\n");
            }
            author = by;
            text.append(more);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }

    String text() {
        return sawPartial ? partialText.toString() : finalText.toString();
    }

    static String text(Event event) {
        StringBuilder text = new StringBuilder();
        for (Part part : event.content().flatMap(Content::parts).orElse(List.of())) {
            if (!part.thought().orElse(false)) {
                part.text().ifPresent(text::append);
            }
        }
        return text.toString();
    }
}
