package ai.lango.tool;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * How a tool that reports its progress (an MCP server's long call) reaches the turn that called it:
 * the turn listens on its session while it runs, the tool reports for its caller's session.
 */
public final class ToolProgress {

    /** How far a tool got: out of {@code total} (0 when unknown), and what it says. */
    public record Report(String tool, double progress, double total, String message) {
    }

    private static final Map<String, Consumer<Report>> LISTENERS = new ConcurrentHashMap<>();

    private ToolProgress() {
    }

    /** The turn of session {@code scope} hears its tools' progress until {@link #stop}. */
    public static void listen(String scope, Consumer<Report> listener) {
        LISTENERS.put(scope, listener);
    }

    public static void stop(String scope) {
        LISTENERS.remove(scope);
    }

    /** A tool of {@code caller}'s turn reports its progress; nothing happens when nobody listens. */
    public static void report(Caller caller, Report report) {
        if (caller == null || caller.session() == null) {
            return;
        }
        Consumer<Report> listener = LISTENERS.get(caller.session().scope());
        if (listener != null) {
            listener.accept(report);
        }
    }
}
