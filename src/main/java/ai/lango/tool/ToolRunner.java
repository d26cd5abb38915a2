package ai.lango.tool;

import ai.lango.masking.SecretMask;
import ai.lango.turn.TurnAbort;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a tool so that nothing it does crashes a run: a timeout, a refusal or an exception becomes
 * an {"error": …} result the model reads and can act on. References in the arguments ({@code
 * {{secret:NAME}}}) are replaced just before the tool runs, and every known secret (see {@link
 * SecretMask}) that appears in a result is masked before the result goes anywhere: to the model,
 * into the database, to a client.
 */
public final class ToolRunner {

    private final ExecutorService executor;
    private final Duration defaultTimeout;
    private final References references;

    public ToolRunner(ExecutorService executor, Duration defaultTimeout) {
        this(executor, defaultTimeout, References.NONE);
    }

    public ToolRunner(ExecutorService executor, Duration defaultTimeout, References references) {
        this.executor = executor;
        this.defaultTimeout = defaultTimeout;
        this.references = references;
    }

    public Map<String, Object> run(Tool tool, Map<String, Object> args) {
        return run(tool, args, null);
    }

    /** What the call's references stand for and where they would go; refused before anything is opened. */
    public References.Use inspect(Tool tool, Map<String, Object> args, Caller caller) throws ToolException {
        return references.inspect(tool, args == null ? Map.of() : args, caller);
    }

    /** Runs the tool for {@code caller} (null when unknown). */
    public Map<String, Object> run(Tool tool, Map<String, Object> args, Caller caller) {
        return SecretMask.maskMap(call(tool, args, caller), caller == null ? ai.lango.masking.Audience.NOBODY : caller.audience());
    }

    private Map<String, Object> call(Tool tool, Map<String, Object> args, Caller caller) {
        Map<String, Object> arguments = args == null ? Map.of() : args;
        for (Object required : requiredParameters(tool)) {
            if (!arguments.containsKey(String.valueOf(required))) {
                return error("tool \"" + tool.name() + "\": missing required parameter \"" + required + "\"");
            }
        }
        Map<String, Object> resolved;
        try {
            resolved = references.resolve(tool, arguments, caller);
        } catch (ToolException refused) {
            return error(refused.getMessage());
        }
        Duration timeout = tool.timeout().orElse(defaultTimeout);
        Future<Map<String, Object>> call = executor.submit(() -> tool.call(resolved, caller));
        // The turn's deadline cancels the call (its thread interrupted: exec kills its process group).
        TurnAbort abort = caller == null ? new TurnAbort() : caller.turn().abort();
        try (TurnAbort.Registration ending = abort.onAbort(() -> call.cancel(true))) {
            return call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (CancellationException e) {
            return error("tool \"" + tool.name() + "\" was interrupted: the turn's time ran out");
        } catch (TimeoutException e) {
            call.cancel(true);
            return error("tool \"" + tool.name() + "\" timed out after " + human(timeout));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ToolException refusal) {
                return error(refusal.getMessage());
            }
            return error("tool \"" + tool.name() + "\" failed: " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            return error("tool \"" + tool.name() + "\" was interrupted");
        }
    }

    private static List<?> requiredParameters(Tool tool) {
        return tool.parameters().get("required") instanceof List<?> required ? required : List.of();
    }

    private static Map<String, Object> error(String message) {
        return Map.of("error", message);
    }

    /** 500ms, 30s, 2m, 1m30s. */
    static String human(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000 || millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds < 60) {
            return seconds + "s";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds / 60 + "m" + seconds % 60 + "s";
    }
}
