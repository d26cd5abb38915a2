package ai.lango.adk;

import ai.lango.masking.SecretMask;
import ai.lango.telemetry.Telemetry;
import com.google.adk.telemetry.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.concurrent.TimeUnit;

/**
 * ADK's own spans (invoke_agent per agent, execute_tool per tool call) go to Lango's OpenTelemetry, in the current
 * GenAI names: ADK's {@code call_llm} is left out (Lango's model adapter writes the {@code chat} span of each call,
 * with the provider's name and usage), its older {@code gen_ai.system} and its {@code gcp.vertex.agent.*}
 * attributes (the request, the response, tool arguments: conversation text) are dropped — kept, masked, only with
 * lango.telemetry.capture-content — and its tool call id is also written under the current name.
 */
final class AdkTracing {

    /** ADK's name of its per-call span. */
    static final String CALL_LLM = "call_llm";

    private AdkTracing() {
    }

    /** ADK's tracer from now on: Lango's OpenTelemetry, filtered. */
    static void install() {
        Tracing.setTracerForTesting(new Filtering(Telemetry.openTelemetry().getTracer("gcp.vertex.agent")));
    }

    /** Whether an attribute of ADK's is kept, and as what. */
    static boolean keeps(String key) {
        return !key.equals("gen_ai.system") && (Telemetry.capturesContent() || !key.startsWith("gcp.vertex.agent."));
    }

    private static final class Filtering implements Tracer {
        private final Tracer tracer;

        Filtering(Tracer tracer) {
            this.tracer = tracer;
        }

        @Override
        public SpanBuilder spanBuilder(String name) {
            return name.equals(CALL_LLM) ? new Skipped() : new Builder(tracer.spanBuilder(name));
        }
    }

    /** A span builder whose span is the parent itself: the skipped span's children hang where it would have. */
    private static final class Skipped implements SpanBuilder {
        private Context parent;

        @Override
        public SpanBuilder setParent(Context context) {
            parent = context;
            return this;
        }

        @Override
        public SpanBuilder setNoParent() {
            parent = Context.root();
            return this;
        }

        @Override
        public SpanBuilder addLink(SpanContext spanContext) {
            return this;
        }

        @Override
        public SpanBuilder addLink(SpanContext spanContext, Attributes attributes) {
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, String value) {
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, long value) {
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, double value) {
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, boolean value) {
            return this;
        }

        @Override
        public <T> SpanBuilder setAttribute(AttributeKey<T> key, T value) {
            return this;
        }

        @Override
        public SpanBuilder setSpanKind(SpanKind spanKind) {
            return this;
        }

        @Override
        public SpanBuilder setStartTimestamp(long startTimestamp, TimeUnit unit) {
            return this;
        }

        @Override
        public Span startSpan() {
            return new Passive(Span.fromContext(parent == null ? Context.current() : parent));
        }
    }

    /** The parent, seen through a span that records nothing and ends nothing. */
    private static final class Passive implements Span {
        private final Span parent;

        Passive(Span parent) {
            this.parent = parent;
        }

        @Override
        public <T> Span setAttribute(AttributeKey<T> key, T value) {
            return this;
        }

        @Override
        public Span addEvent(String name, Attributes attributes) {
            return this;
        }

        @Override
        public Span addEvent(String name, Attributes attributes, long timestamp, TimeUnit unit) {
            return this;
        }

        @Override
        public Span setStatus(StatusCode statusCode, String description) {
            return this;
        }

        @Override
        public Span recordException(Throwable exception, Attributes additionalAttributes) {
            return this;
        }

        @Override
        public Span updateName(String name) {
            return this;
        }

        @Override
        public void end() {
        }

        @Override
        public void end(long timestamp, TimeUnit unit) {
        }

        @Override
        public SpanContext getSpanContext() {
            return parent.getSpanContext();
        }

        @Override
        public boolean isRecording() {
            return false;
        }
    }

    private static final class Builder implements SpanBuilder {
        private final SpanBuilder builder;

        Builder(SpanBuilder builder) {
            this.builder = builder;
        }

        @Override
        public SpanBuilder setParent(Context context) {
            builder.setParent(context);
            return this;
        }

        @Override
        public SpanBuilder setNoParent() {
            builder.setNoParent();
            return this;
        }

        @Override
        public SpanBuilder addLink(SpanContext spanContext) {
            builder.addLink(spanContext);
            return this;
        }

        @Override
        public SpanBuilder addLink(SpanContext spanContext, Attributes attributes) {
            builder.addLink(spanContext, attributes);
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, String value) {
            return setAttribute(AttributeKey.stringKey(key), value);
        }

        @Override
        public SpanBuilder setAttribute(String key, long value) {
            return setAttribute(AttributeKey.longKey(key), value);
        }

        @Override
        public SpanBuilder setAttribute(String key, double value) {
            return setAttribute(AttributeKey.doubleKey(key), value);
        }

        @Override
        public SpanBuilder setAttribute(String key, boolean value) {
            return setAttribute(AttributeKey.booleanKey(key), value);
        }

        @Override
        public <T> SpanBuilder setAttribute(AttributeKey<T> key, T value) {
            if (keeps(key.getKey())) {
                builder.setAttribute(key, masked(value));
            }
            return this;
        }

        @Override
        public SpanBuilder setSpanKind(SpanKind spanKind) {
            builder.setSpanKind(spanKind);
            return this;
        }

        @Override
        public SpanBuilder setStartTimestamp(long startTimestamp, TimeUnit unit) {
            builder.setStartTimestamp(startTimestamp, unit);
            return this;
        }

        @Override
        public Span startSpan() {
            return new Filtered(builder.startSpan());
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T masked(T value) {
        return value instanceof String text ? (T) SecretMask.mask(text) : value;
    }

    /** ADK's span, its attributes filtered as it sets them. */
    private static final class Filtered implements Span {
        private final Span span;

        Filtered(Span span) {
            this.span = span;
        }

        @Override
        public <T> Span setAttribute(AttributeKey<T> key, T value) {
            if (key.getKey().equals("gen_ai.tool_call.id") && value instanceof String id) {
                span.setAttribute(Telemetry.TOOL_CALL_ID, id); // the name the current conventions use
            }
            if (keeps(key.getKey())) {
                span.setAttribute(key, masked(value));
            }
            return this;
        }

        @Override
        public Span addEvent(String name, Attributes attributes) {
            span.addEvent(name, attributes);
            return this;
        }

        @Override
        public Span addEvent(String name, Attributes attributes, long timestamp, TimeUnit unit) {
            span.addEvent(name, attributes, timestamp, unit);
            return this;
        }

        @Override
        public Span setStatus(StatusCode statusCode, String description) {
            span.setStatus(statusCode, description == null ? null : SecretMask.mask(description));
            return this;
        }

        @Override
        public Span recordException(Throwable exception, Attributes additionalAttributes) {
            // as the exception event, its message masked (a tool's error may quote what it was given)
            span.addEvent("exception", Attributes.of(AttributeKey.stringKey("exception.type"), exception.getClass().getName(),
                    AttributeKey.stringKey("exception.message"), SecretMask.mask(String.valueOf(exception.getMessage()))));
            return this;
        }

        @Override
        public Span updateName(String name) {
            span.updateName(name);
            return this;
        }

        @Override
        public void end() {
            span.end();
        }

        @Override
        public void end(long timestamp, TimeUnit unit) {
            span.end(timestamp, unit);
        }

        @Override
        public SpanContext getSpanContext() {
            return span.getSpanContext();
        }

        @Override
        public boolean isRecording() {
            return span.isRecording();
        }
    }
}
