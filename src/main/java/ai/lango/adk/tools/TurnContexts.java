package ai.lango.adk.tools;

import ai.lango.turn.TurnContext;
import com.google.adk.agents.InvocationContext;
import com.google.adk.agents.ReadonlyContext;
import com.google.adk.agents.RunConfig;
import java.util.Map;
import java.util.Optional;

/**
 * Where ADK carries a turn's {@link TurnContext}: in the custom metadata of the run's {@link RunConfig}, which
 * ADK hands to every invocation, callback and tool of the run — so a tool, a plugin and a continuation after an
 * approval read their turn from the run they are part of, on whatever thread they run.
 */
public final class TurnContexts {

    private static final String KEY = "lango.turn";

    private TurnContexts() {
    }

    /** The run configuration of {@code turn}'s runs: streaming or not, and the turn itself. */
    public static RunConfig runConfig(TurnContext turn, boolean streaming) {
        return RunConfig.builder()
                .setStreamingMode(streaming ? RunConfig.StreamingMode.SSE : RunConfig.StreamingMode.NONE)
                .customMetadata(Map.of(KEY, turn))
                .build();
    }

    /** The turn of this run, when it was started as one. */
    public static Optional<TurnContext> of(InvocationContext invocation) {
        return invocation == null ? Optional.empty()
                : Optional.ofNullable(invocation.runConfig().customMetadata().get(KEY)).map(TurnContext.class::cast);
    }

    /** The turn a tool call, a callback or a toolset's question is part of. */
    public static Optional<TurnContext> of(ReadonlyContext context) {
        return context == null ? Optional.empty() : of(context.invocationContext());
    }
}
