package ai.lango.adk.runner;

import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A model for runner tests: answers from a script, records every request it was sent. */
public final class ScriptedLlm extends BaseLlm {

    public final List<LlmRequest> requests = new ArrayList<>();
    private final Deque<Supplier<Flowable<LlmResponse>>> script = new ArrayDeque<>();
    private Supplier<Flowable<LlmResponse>> fallback;

    public ScriptedLlm() {
        super("scripted");
    }

    public ScriptedLlm then(Supplier<Flowable<LlmResponse>> answer) {
        script.add(answer);
        return this;
    }

    public ScriptedLlm thenText(String text) {
        return then(() -> Flowable.just(text(text)));
    }

    public ScriptedLlm thenCall(String name, Map<String, Object> args) {
        return then(() -> Flowable.just(call(name, args)));
    }

    public ScriptedLlm thenError(RuntimeException error) {
        return then(() -> Flowable.error(error));
    }

    /** What to answer once the script is used up. */
    public ScriptedLlm always(Supplier<Flowable<LlmResponse>> answer) {
        this.fallback = answer;
        return this;
    }

    public static LlmResponse text(String text) {
        return LlmResponse.builder()
                .content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
                .partial(false).turnComplete(true).build();
    }

    private static final java.util.concurrent.atomic.AtomicInteger CALLS = new java.util.concurrent.atomic.AtomicInteger();

    /** A call with an id of its own, as real models give. */
    public static LlmResponse call(String name, Map<String, Object> args) {
        return LlmResponse.builder()
                .content(Content.builder().role("model").parts(List.of(Part.builder()
                        .functionCall(FunctionCall.builder().id("call-" + name + "-" + CALLS.incrementAndGet()).name(name).args(args).build())
                        .build())).build())
                .partial(false).turnComplete(true).build();
    }

    @Override
    public synchronized Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
        requests.add(request);
        Supplier<Flowable<LlmResponse>> next = script.isEmpty() ? fallback : script.poll();
        if (next == null) {
            return Flowable.error(new IllegalStateException("the script has no more answers"));
        }
        return next.get();
    }

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
        throw new UnsupportedOperationException();
    }

    /** Every text the last request carried, for asserting what the model was sent. */
    public String lastRequestText() {
        StringBuilder text = new StringBuilder();
        requests.get(requests.size() - 1).contents().forEach(c -> c.parts().orElse(List.of())
                .forEach(p -> p.text().ifPresent(t -> text.append(t).append('\n'))));
        return text.toString();
    }
}
