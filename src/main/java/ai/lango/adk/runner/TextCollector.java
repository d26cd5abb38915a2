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

    void accept(Event event) {
        if (Names.USER_AUTHOR.equals(event.author())) {
            return;
        }
        String text = text(event);
        if (event.partial().orElse(false)) {
            sawPartial = true;
            partialText.append(event.author(), text);
        } else {
            finalText.append(event.author(), text);
        }
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
