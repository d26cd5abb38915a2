package ai.lango.adk;

import com.google.adk.events.Event;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.List;

/**
 * The answer's text from a run's events, never twice: when the run streamed, the partial chunks
 * are the text (the final event repeats them); otherwise the final events' text is.
 */
final class TextCollector {

    private final StringBuilder partialText = new StringBuilder();
    private final StringBuilder finalText = new StringBuilder();
    private boolean sawPartial;

    void accept(Event event) {
        if ("user".equals(event.author())) {
            return;
        }
        String text = text(event);
        if (event.partial().orElse(false)) {
            sawPartial = true;
            partialText.append(text);
        } else {
            finalText.append(text);
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
