package ai.lango.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.function.BiConsumer;

/**
 * The OpenTelemetry Lango writes to: Liberty's, once installed at start (by the agent service); a no-op before
 * and without a container. GenAI names are written as strings: the bundled API has no constants for them.
 */
public final class Telemetry {

    /** The instrumentation scope of Lango's own spans and metrics. */
    public static final String SCOPE = "ai.lango";

    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    public static final AttributeKey<String> AGENT = AttributeKey.stringKey("gen_ai.agent.name");
    public static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
    public static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    public static final AttributeKey<java.util.List<String>> FINISH_REASONS = AttributeKey.stringArrayKey(
            "gen_ai.response.finish_reasons");
    public static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    public static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private static volatile OpenTelemetry otel = OpenTelemetry.noop();
    private static volatile boolean captureContent;
    private static volatile LongHistogram tokens;
    private static volatile DoubleHistogram duration;

    private Telemetry() {
    }

    /** From now on, spans and metrics go to {@code openTelemetry}; message content only with {@code content}. */
    public static void install(OpenTelemetry openTelemetry, boolean content) {
        otel = openTelemetry;
        captureContent = content;
        var meter = openTelemetry.getMeter(SCOPE);
        tokens = meter.histogramBuilder("gen_ai.client.token.usage").ofLongs().setUnit("{token}")
                .setDescription("Tokens used by one model call, by type (input or output)").build();
        duration = meter.histogramBuilder("gen_ai.client.operation.duration").setUnit("s")
                .setDescription("How long one model call took").build();
    }

    public static OpenTelemetry openTelemetry() {
        return otel;
    }

    public static Tracer tracer() {
        return otel.getTracer(SCOPE);
    }

    /** Whether spans may carry message content (lango.telemetry.capture-content), masked. */
    public static boolean capturesContent() {
        return captureContent;
    }

    /** One model call's tokens and time, as the GenAI metrics count them. */
    public static void recordCall(String provider, String model, long input, long output, double seconds, String errorType) {
        Attributes base = Attributes.of(OPERATION, "chat", PROVIDER, provider, REQUEST_MODEL, model);
        LongHistogram t = tokens;
        DoubleHistogram d = duration;
        if (t == null || d == null) {
            return;
        }
        if (errorType == null) {
            t.record(input, base.toBuilder().put(TOKEN_TYPE, "input").build());
            t.record(output, base.toBuilder().put(TOKEN_TYPE, "output").build());
            d.record(seconds, base);
        } else {
            d.record(seconds, base.toBuilder().put(ERROR_TYPE, errorType).build());
        }
    }

    /** The W3C trace context of the current span, as headers for an HTTP peer (nothing without one). */
    public static void inject(BiConsumer<String, String> header) {
        W3CTraceContextPropagator.getInstance().inject(Context.current(), header, (h, key, value) -> h.accept(key, value));
    }

    /** The current trace's id, or null outside one. */
    public static String traceId() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid() ? span.getTraceId() : null;
    }
}
