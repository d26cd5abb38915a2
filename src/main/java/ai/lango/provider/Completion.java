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
        return complete(provider, model, instruction, input, (request, answer, usage) -> { });
    }

    /** What a call used: the request, the answer, and the usage the provider reported (null: none). */
    @FunctionalInterface
    public interface Used {
        void used(ChatRequest request, String answer, StreamEvent.Usage reported);
    }

    /** The same, telling {@code used} what the call used once the answer is whole. */
    public static String complete(Provider provider, String model, String instruction, String input, Used used) {
        StringBuilder answer = new StringBuilder();
        StreamEvent.Usage[] reported = new StreamEvent.Usage[1];
        ChatRequest request = new ChatRequest(model, List.of(ChatMessage.system(instruction), ChatMessage.user(input)), List.of(),
                null, null);
        long started = System.nanoTime();
        try (Provider.OpenStream stream = provider.open(request)) {
            stream.drain(event -> {
                if (event instanceof StreamEvent.Usage usage) {
                    reported[0] = usage;
                } else if (event instanceof StreamEvent.TextDelta delta) {
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
        used.used(request, text, reported[0]);
        if (text.isEmpty()) {
            throw new IllegalStateException("the model " + provider.id() + "/" + model + " answered nothing");
        }
        return text;
    }
}
