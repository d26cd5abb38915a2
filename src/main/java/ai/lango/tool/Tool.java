package ai.lango.tool;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A tool the agent may call, as the runner and the ADK bridge see it. Plain Java. Tools are written
 * by extending {@link DeclaredTool}.
 */
public interface Tool {

    /** Which family the tool belongs to: what it lets an agent do, and which sub-agent holds it. */
    ToolFamily family();

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
    default boolean alwaysAsks(Map<String, Object> args, Caller caller) {
        return false;
    }

    /** The arguments as a JSON Schema object: {"type":"object","properties":{…},"required":[…]}. */
    Map<String, Object> parameters();

    /**
     * Runs the tool for {@code caller} (the turn's user and session; null when there is none); the
     * result is a JSON-friendly map. A {@link ToolException} is a clear error for the model.
     */
    Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception;

    /**
     * Whether the tool keeps the text it is given (a file, knowledge, a learning, a skill, a secret):
     * a reference to a secret in its arguments stays as text, its value never goes in.
     */
    default boolean keepsText() {
        return false;
    }

    /**
     * Where this call sends what it is given, when the tool reaches the network: a host name or
     * address (with ":port" when not the scheme's default), or "*" when it may be any. Empty: what it
     * is given stays on this machine.
     */
    default Optional<String> destination(Map<String, Object> args, Caller caller) {
        return Optional.empty();
    }

    /**
     * What a person must see besides the call before approving it (exec: the files of the workspace
     * changed since {@code since}, the session's last approved run of this tool, or ever when null).
     */
    default Map<String, Object> approvalNotes(Map<String, Object> args, Caller caller, java.time.Instant since) {
        return Map.of();
    }

    /** How long one call may take; empty for the runner's default. */
    default Optional<Duration> timeout() {
        return Optional.empty();
    }
}
