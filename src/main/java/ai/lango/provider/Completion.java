package ai.lango.provider;

import java.time.Duration;
import java.util.List;

/**
 * One question to a model outside any agent: an instruction and an input, no tools, no history;
 * the whole answer as text. For the helpers that ask a model on the side (memory's observer and
 * reflector, the graph's triple extraction).
 */
public final class Completion {

    private Completion() {
    }

    /** The model's whole answer, stripped; an empty answer is an error naming the model. */
    public static String complete(Provider provider, String model, String instruction, String input) {
        StringBuilder answer = new StringBuilder();
        long started = System.nanoTime();
        try (Provider.OpenStream stream = provider.open(new ChatRequest(model,
                List.of(ChatMessage.system(instruction), ChatMessage.user(input)), List.of(), null, null))) {
            stream.drain(event -> {
                if (event instanceof StreamEvent.TextDelta delta) {
                    answer.append(delta.text());
                } else if (event instanceof StreamEvent.Error error) {
                    throw error.error();
                }
            });
        } catch (ProviderException failed) {
            ProviderFailures.log(failed, model, 1, Duration.ofNanos(System.nanoTime() - started));
            throw failed;
        }
        String text = answer.toString().strip();
        if (text.isEmpty()) {
            throw new IllegalStateException("the model " + provider.id() + "/" + model + " answered nothing");
        }
        return text;
    }
}
