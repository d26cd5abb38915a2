package ai.lango.adk;

import com.google.adk.events.Event;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.Consumer;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Turn metrics at /metrics, per provider: turn latency, time to the first chunk, tokens in and
 * out, tool calls and failed turns.
 */
@ApplicationScoped
public class TurnMetrics {

    @Inject
    MetricRegistry registry;

    /** Watches one turn's events; call {@link Turn#end} when it is over. */
    public Turn start(String provider) {
        return new Turn(provider, System.nanoTime());
    }

    public final class Turn implements Consumer<Event> {
        private final Tag provider;
        private final long start;
        private long firstChunk = -1;

        private Turn(String provider, long start) {
            this.provider = new Tag("provider", provider);
            this.start = start;
        }

        @Override
        public void accept(Event event) {
            if (firstChunk < 0 && !"user".equals(event.author()) && !TextCollector.text(event).isEmpty()) {
                firstChunk = System.nanoTime();
                registry.timer("lango.turn.first_chunk", provider).update(Duration.ofNanos(firstChunk - start));
            }
            if (event.partial().orElse(false)) {
                return; // chunks only matter for the first-chunk time above
            }
            if (!event.functionCalls().isEmpty()) {
                registry.counter("lango.tool.calls", provider).inc(event.functionCalls().size());
            }
            event.usageMetadata().ifPresent(this::tokens);
        }

        private void tokens(GenerateContentResponseUsageMetadata usage) {
            usage.promptTokenCount().ifPresent(n -> registry.counter("lango.tokens", provider, new Tag("direction", "input")).inc(n));
            usage.candidatesTokenCount().ifPresent(n -> registry.counter("lango.tokens", provider, new Tag("direction", "output")).inc(n));
        }

        public void end(boolean failed) {
            registry.timer("lango.turn.duration", provider).update(Duration.ofNanos(System.nanoTime() - start));
            if (failed) {
                registry.counter("lango.errors", provider).inc();
            }
        }
    }
}
