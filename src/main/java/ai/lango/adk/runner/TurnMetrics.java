package ai.lango.adk.runner;

import ai.lango.turn.Names;
import com.google.adk.events.Event;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Turn metrics at /metrics, per provider: turn latency, time to the first chunk, tokens in and
 * out, tool calls and failed turns.
 */
@ApplicationScoped
public class TurnMetrics {

    @Inject
    MeterRegistry registry;

    /** Watches one turn's events; call {@link Turn#end} when it is over. */
    public Turn start(String provider) {
        return new Turn(provider, System.nanoTime());
    }

    public final class Turn implements Consumer<Event> {
        private final Tags provider;
        private final long start;
        private long firstChunk = -1;

        private Turn(String provider, long start) {
            this.provider = Tags.of("provider", provider);
            this.start = start;
        }

        @Override
        public void accept(Event event) {
            if (firstChunk < 0 && !Names.USER_AUTHOR.equals(event.author()) && !TextCollector.text(event).isEmpty()) {
                firstChunk = System.nanoTime();
                timer("lango.turn.first_chunk", "time from the user's message to the first chunk of the answer")
                        .record(firstChunk - start, TimeUnit.NANOSECONDS);
            }
            if (event.partial().orElse(false)) {
                return; // chunks only matter for the first-chunk time above
            }
            if (!event.functionCalls().isEmpty()) {
                registry.counter("lango.tool.calls", provider).increment(event.functionCalls().size());
            }
            event.usageMetadata().ifPresent(this::tokens);
        }

        private void tokens(GenerateContentResponseUsageMetadata usage) {
            usage.promptTokenCount().ifPresent(n -> registry.counter("lango.tokens", provider.and("direction", "input")).increment(n));
            usage.candidatesTokenCount().ifPresent(n -> registry.counter("lango.tokens", provider.and("direction", "output")).increment(n));
        }

        public void end(boolean failed) {
            timer("lango.turn.duration", "time from the user's message to the end of the turn")
                    .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            if (failed) {
                registry.counter("lango.errors", provider).increment();
            }
        }

        /** Timers publish histogram buckets, so Prometheus can compute any quantile across servers. */
        private Timer timer(String name, String description) {
            return Timer.builder(name).description(description).tags(provider).publishPercentileHistogram()
                    .register(registry);
        }
    }
}
