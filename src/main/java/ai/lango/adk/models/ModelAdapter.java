package ai.lango.adk.models;

import ai.lango.config.Keys;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderException;
import ai.lango.provider.ProviderFailures;
import ai.lango.provider.StreamEvent;
import ai.lango.turn.TurnAbort;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.JsonBaseModel;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * ADK's model interface over a Lango {@link Provider}. With {@code stream} it yields a partial
 * response per text delta and then one complete final response; without, only the final one. A
 * provider error ends the flow with that error at once.
 */
public final class ModelAdapter extends BaseLlm {

    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {
    };

    /** How a call is opened: {@link ProviderCalls#open} in the server (with retries), or {@link #DIRECT}. */
    @FunctionalInterface
    public interface Opener {
        /** Opens the call; each attempt counts itself in {@code attempts}. */
        Provider.OpenStream open(Provider provider, ChatRequest request, AtomicInteger attempts);
    }

    /** One attempt, no retries. */
    public static final Opener DIRECT = (provider, request, attempts) -> {
        attempts.incrementAndGet();
        return provider.open(request);
    };

    private final Provider provider;
    private final Opener opener;
    private final int toolChars;

    public ModelAdapter(String model, Provider provider, Opener opener) {
        this(model, provider, opener, Keys.TOOL_IO_MAX_CHARS.defaultValue());
    }

    /** @param toolChars the most characters of one tool call's arguments, or one tool result, that a request carries */
    public ModelAdapter(String model, Provider provider, Opener opener, int toolChars) {
        super(model);
        this.provider = provider;
        this.opener = opener;
        this.toolChars = toolChars;
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
        return Flowable.create(emitter -> {
            ChatRequest chat = RequestConversion.toChatRequest(request, model(), toolChars);
            AtomicInteger attempts = new AtomicInteger();
            long started = System.nanoTime();
            Consumer<ProviderException> failed = failure ->
                    ProviderFailures.log(failure, chat.model(), attempts.get(), Duration.ofNanos(System.nanoTime() - started));
            Provider.OpenStream open;
            try {
                open = opener.open(provider, chat, attempts);
            } catch (RuntimeException e) {
                ProviderException failure = ProviderCalls.unwrap(e);
                failed.accept(failure);
                emitter.onError(failure);
                return;
            }
            emitter.setCancellable(open::close);
            // The turn's deadline closes the stream where the drain waits for it.
            try (open; TurnAbort.Registration ending = TurnAbort.whileWaiting(open::close)) {
                open.drain(new Accumulator(emitter, stream, failed)::accept);
            }
        }, BackpressureStrategy.BUFFER);
    }

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
        throw new UnsupportedOperationException("live (bidirectional) connections are not supported by " + provider.id());
    }

    /** Collects one answer; emits partials as they come when streaming and the final response at Done. */
    private static final class Accumulator {
        private final FlowableEmitter<LlmResponse> emitter;
        private final boolean stream;
        private final StringBuilder text = new StringBuilder();
        private final List<FunctionCall> calls = new ArrayList<>();
        private GenerateContentResponseUsageMetadata usage;
        private boolean ended;

        private final Consumer<ProviderException> failed;

        Accumulator(FlowableEmitter<LlmResponse> emitter, boolean stream, Consumer<ProviderException> failed) {
            this.emitter = emitter;
            this.stream = stream;
            this.failed = failed;
        }

        void accept(StreamEvent event) {
            if (ended || emitter.isCancelled()) {
                return;
            }
            if (event instanceof StreamEvent.TextDelta delta) {
                text.append(delta.text());
                if (stream && !delta.text().isEmpty()) {
                    emitter.onNext(LlmResponse.builder()
                            .content(modelContent(List.of(Part.fromText(delta.text()))))
                            .partial(true)
                            .build());
                }
            } else if (event instanceof StreamEvent.ToolCallEvent call) {
                calls.add(FunctionCall.builder().id(call.id()).name(ToolCallPairing.guarded(call.name()))
                        .args(arguments(call.arguments())).build());
            } else if (event instanceof StreamEvent.Usage counts) {
                usage = GenerateContentResponseUsageMetadata.builder()
                        .promptTokenCount(counts.inputTokens())
                        .candidatesTokenCount(counts.outputTokens())
                        .totalTokenCount(counts.inputTokens() + counts.outputTokens())
                        .build();
            } else if (event instanceof StreamEvent.Done) {
                ended = true;
                emitter.onNext(finalResponse());
                emitter.onComplete();
            } else if (event instanceof StreamEvent.Error error) {
                ended = true;
                failed.accept(error.error());
                emitter.onError(error.error());
            }
        }

        private LlmResponse finalResponse() {
            List<Part> parts = new ArrayList<>();
            if (text.length() > 0) {
                parts.add(Part.fromText(text.toString()));
            }
            calls.forEach(call -> parts.add(Part.builder().functionCall(call).build()));
            LlmResponse.Builder response = LlmResponse.builder()
                    .content(modelContent(parts))
                    .partial(false)
                    .turnComplete(true)
                    .finishReason(new FinishReason(FinishReason.Known.STOP));
            if (usage != null) {
                response.usageMetadata(usage);
            }
            return response.build();
        }
    }

    /** Model output must say so: Content.fromParts would default to role "user". */
    private static Content modelContent(List<Part> parts) {
        return Content.builder().role("model").parts(parts).build();
    }

    /** Reads arguments as long as an answer may be (Jackson's own limit, 20 million characters, is below it). */
    private static final ObjectMapper ARGUMENTS = JsonBaseModel.getMapper().copy();

    static {
        ARGUMENTS.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength((int) Provider.MAX_ANSWER_CHARS).build());
    }

    /** A model's arguments as a map; text that is not a JSON object is passed on under "_raw". */
    static Map<String, Object> arguments(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            return ARGUMENTS.readValue(json, MAP);
        } catch (Exception notAnObject) {
            return Map.of("_raw", json);
        }
    }

}
