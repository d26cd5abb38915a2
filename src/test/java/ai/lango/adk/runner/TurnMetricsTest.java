package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.adk.events.Event;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TurnMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final TurnMetrics metrics = new TurnMetrics();

    {
        metrics.registry = registry;
    }

    private static Event model(Part part, boolean partial) {
        return Event.builder().author("lango-agent").partial(partial)
                .content(Content.builder().role("model").parts(part).build()).build();
    }

    @Test
    void aTurnCountsItsToolCallsTokensFirstChunkAndDurationPerProvider() {
        TurnMetrics.Turn turn = metrics.start("openai");
        turn.accept(Event.builder().author("user")
                .content(Content.builder().role("user").parts(Part.fromText("hi")).build()).build());
        turn.accept(model(Part.builder().functionCall(FunctionCall.builder().id("c1").name("fs_list")
                .args(Map.of()).build()).build(), false));
        turn.accept(model(Part.fromText("Do"), true));
        turn.accept(model(Part.fromText("ne"), true));
        turn.accept(model(Part.fromText("Done"), false).toBuilder().usageMetadata(GenerateContentResponseUsageMetadata
                .builder().promptTokenCount(12).candidatesTokenCount(3).build()).build());
        turn.end(false);

        assertEquals(1, registry.get("lango.tool.calls").tag("provider", "openai").counter().count());
        assertEquals(12, registry.get("lango.tokens").tags("provider", "openai", "direction", "input").counter().count());
        assertEquals(3, registry.get("lango.tokens").tags("provider", "openai", "direction", "output").counter().count());
        assertEquals(1, registry.get("lango.turn.first_chunk").tag("provider", "openai").timer().count(),
                "only the first chunk is timed");
        assertEquals(1, registry.get("lango.turn.duration").tag("provider", "openai").timer().count());
        assertEquals(0, registry.find("lango.errors").counters().size());
    }

    @Test
    void aFailedTurnCountsAnErrorForItsProvider() {
        metrics.start("anthropic").end(true);
        metrics.start("anthropic").end(true);
        assertEquals(2, registry.get("lango.errors").tag("provider", "anthropic").counter().count());
        assertEquals(2, registry.get("lango.turn.duration").tag("provider", "anthropic").timer().count());
    }
}
