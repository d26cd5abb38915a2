package ai.lango.tool;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** A tool the agent may call. Plain Java: the ADK bridge adapts it. */
public interface Tool {

    String name();

    String description();

    /** How much harm a call can do: what the approval policy goes by. Every tool declares it. */
    Safety safety();

    /** The safety of this call: a tool whose actions differ (crypto_keys: list, create, delete) says so per call. */
    default Safety safety(Map<String, Object> args) {
        return safety();
    }

    /**
     * Whether this call waits for a person whatever the approval policy says (a payment at or above
     * its threshold): the policy, exempt tools included, cannot let it through.
     */
    default boolean alwaysAsks(Map<String, Object> args) {
        return false;
    }

    /** The arguments as a JSON Schema object: {"type":"object","properties":{…},"required":[…]}. */
    Map<String, Object> parameters();

    /** Runs the tool; the result is a JSON-friendly map. A {@link ToolException} is a clear error for the model. */
    Map<String, Object> call(Map<String, Object> args) throws Exception;

    /** Runs the tool for this caller; tools that do not care who calls need not override it. */
    default Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
        return call(args);
    }

    /** How long one call may take; empty for the runner's default. */
    default Optional<Duration> timeout() {
        return Optional.empty();
    }
}
