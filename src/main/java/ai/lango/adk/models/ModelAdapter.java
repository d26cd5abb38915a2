package ai.lango.adk.models;

import ai.lango.config.Keys;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderException;
import ai.lango.provider.ProviderFailures;
import ai.lango.provider.StreamEvent;
import ai.lango.masking.SecretMask;
import ai.lango.telemetry.Telemetry;
import ai.lango.turn.ModelCall;
import ai.lango.turn.TurnAbort;
import ai.lango.turn.TurnContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
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

    /**
     * How an agent's model call is written down once it answered: its usage (the counts the provider reported, or
     * null when it reported none), priced — or null when nothing is kept (tests, benchmarks).
     */
    @FunctionalInterface
    public interface CallRecords {
        ModelCall record(TurnContext turn, String agent, String provider, String model, ChatRequest request, String answer,
                         StreamEvent.Usage reported);

        CallRecords NONE = (turn, agent, provider, model, request, answer, reported) -> null;
    }

    private final Provider provider;
    private final Opener opener;
    private final int toolChars;
    private final CallRecords records;
    /** The agent whose calls these are (null: not said). */
    private final String agent;
    /** The turn whose calls these are: who reads the answer, its budgets and usage, how it is stopped (null: none). */
    private final TurnContext turn;

    public ModelAdapter(String model, Provider provider, Opener opener) {
        this(model, provider, opener, Keys.TOOL_IO_MAX_CHARS.defaultValue());
    }

    /** @param toolChars the most characters of one tool call's arguments, or one tool result, that a request carries */
    public ModelAdapter(String model, Provider provider, Opener opener, int toolChars) {
        this(model, provider, opener, toolChars, CallRecords.NONE, null, null);
    }

    public ModelAdapter(String model, Provider provider, Opener opener, int toolChars, CallRecords records) {
        this(model, provider, opener, toolChars, records, null, null);
    }

    private ModelAdapter(String model, Provider provider, Opener opener, int toolChars, CallRecords records, String agent,
                         TurnContext turn) {
        super(model);
        this.provider = provider;
        this.opener = opener;
        this.toolChars = toolChars;
        this.records = records;
        this.agent = agent;
        this.turn = turn;
    }

    /** The same model for one agent: its calls' usage is that agent's. */
    public ModelAdapter forAgent(String name) {
        return new ModelAdapter(model(), provider, opener, toolChars, records, name, turn);
    }

    /** The same model for one turn: its calls are that turn's, masked for its caller, metered for its user, stopped with it. */
    public ModelAdapter forTurn(TurnContext turn) {
        return new ModelAdapter(model(), provider, opener, toolChars, records, agent, turn);
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
        return Flowable.create(emitter -> {
            ChatRequest plain = RequestConversion.toChatRequest(request, model(), toolChars);
            ChatRequest chat = turn == null ? plain
                    : plain.forTurn(new ai.lango.masking.Audience(turn.userId(), turn.admin()), turn.abort());
            Span span = chatSpan(chat);
            long started = System.nanoTime();
            try (Scope traced = span.makeCurrent()) { // the provider's request carries this span's trace context
                try {
                    if (turn != null) {
                        turn.meter().beforeCall(); // a budget reached ends the turn here, before the provider is asked
                    }
                } catch (RuntimeException refused) {
                    ended(span, started, refused.getClass().getSimpleName(), refused.getMessage(), null);
                    emitter.onError(refused);
                    return;
                }
                AtomicInteger attempts = new AtomicInteger();
                Consumer<ProviderException> failed = failure -> {
                    ProviderFailures.log(failure, chat.model(), attempts.get(), Duration.ofNanos(System.nanoTime() - started));
                    ended(span, started, failure.kind().name().toLowerCase(java.util.Locale.ROOT), failure.getMessage(), null);
                };
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
                Accumulator[] answer = new Accumulator[1];
                answer[0] = new Accumulator(emitter, stream, failed, (text, reported) -> {
                    ModelCall made = turn == null ? null : records.record(turn, agent, provider.id(), model(), chat, text, reported);
                    if (made != null) {
                        turn.meter().called(made);
                    }
                    span.setAttribute(Telemetry.FINISH_REASONS, List.of(answer[0].finishReason()));
                    if (answer[0].firstChunkNanos > 0) {
                        span.setAttribute("lango.time_to_first_chunk_ms", (answer[0].firstChunkNanos - started) / 1_000_000);
                    }
                    if (Telemetry.capturesContent()) {
                        span.setAttribute("gen_ai.output.messages", SecretMask.mask(text));
                    }
                    ended(span, started, null, null, reported);
                });
                try (open; TurnAbort.Registration ending = chat.abort().onAbort(open::close)) {
                    open.drain(answer[0]::accept);
                }
            } finally {
                span.end(); // once: a span ends at its first end
            }
        }, BackpressureStrategy.BUFFER);
    }

    /** The GenAI {@code chat} span of one model call, a child of the agent's invoke_agent span. */
    private Span chatSpan(ChatRequest chat) {
        io.opentelemetry.api.trace.SpanBuilder builder = Telemetry.tracer().spanBuilder("chat " + model())
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(Telemetry.OPERATION, "chat")
                .setAttribute(Telemetry.PROVIDER, provider.id())
                .setAttribute(Telemetry.REQUEST_MODEL, model());
        if (agent != null) {
            builder.setAttribute(Telemetry.AGENT, agent);
        }
        if (Telemetry.capturesContent()) {
            builder.setAttribute("gen_ai.input.messages", SecretMask.mask(chat.messages().stream()
                    .map(m -> m.role() + ": " + m.content()).collect(java.util.stream.Collectors.joining("\n"))));
        }
        return builder.startSpan();
    }

    /** The call ended: its usage (as reported) or its error on the span, and the GenAI metrics counted. */
    private void ended(Span span, long started, String errorType, String error, StreamEvent.Usage reported) {
        double seconds = (System.nanoTime() - started) / 1e9;
        if (errorType != null) {
            span.setStatus(StatusCode.ERROR, error == null ? errorType : SecretMask.mask(error));
            span.setAttribute(Telemetry.ERROR_TYPE, errorType);
            Telemetry.recordCall(provider.id(), model(), 0, 0, seconds, errorType);
            return;
        }
        long input = reported == null ? 0 : reported.inputTokens();
        long output = reported == null ? 0 : reported.outputTokens();
        if (reported != null) {
            span.setAttribute(Telemetry.INPUT_TOKENS, input);
            span.setAttribute(Telemetry.OUTPUT_TOKENS, output);
        }
        span.setAttribute(Telemetry.RESPONSE_MODEL, model());
        Telemetry.recordCall(provider.id(), model(), input, output, seconds, null);
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
        /** Told the answer's text and the usage the provider reported (null: none) once the answer is whole. */
        private final java.util.function.BiConsumer<String, StreamEvent.Usage> done;
        private StreamEvent.Usage reported;
        /** When the first text came (System.nanoTime), 0 before. */
        long firstChunkNanos;
        private String finish;

        String finishReason() {
            return finish == null ? (calls.isEmpty() ? "stop" : "tool_calls") : finish;
        }

        Accumulator(FlowableEmitter<LlmResponse> emitter, boolean stream, Consumer<ProviderException> failed,
                    java.util.function.BiConsumer<String, StreamEvent.Usage> done) {
            this.emitter = emitter;
            this.stream = stream;
            this.failed = failed;
            this.done = done;
        }

        void accept(StreamEvent event) {
            if (ended || emitter.isCancelled()) {
                return;
            }
            if (event instanceof StreamEvent.TextDelta delta) {
                if (firstChunkNanos == 0 && !delta.text().isEmpty()) {
                    firstChunkNanos = System.nanoTime();
                }
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
                reported = counts;
                usage = GenerateContentResponseUsageMetadata.builder()
                        .cachedContentTokenCount(counts.cachedTokens())
                        .promptTokenCount(counts.inputTokens())
                        .candidatesTokenCount(counts.outputTokens())
                        .totalTokenCount(counts.inputTokens() + counts.outputTokens())
                        .build();
            } else if (event instanceof StreamEvent.Done finished) {
                finish = finished.finishReason();
                ended = true;
                // what the model wrote, calls included: what an estimate of its output counts when the provider reported none
                done.accept(text + calls.stream().map(c -> c.name().orElse("") + c.args().map(Object::toString).orElse(""))
                        .collect(java.util.stream.Collectors.joining()), reported);
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
