package ai.lango.tool;

import ai.lango.config.Redaction;
import ai.lango.turn.TurnAbort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
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
 * an {"error": …} result the model reads and can act on. A configured secret (a provider key, the
 * access token, the database password) that appears in a result is masked before the result goes
 * anywhere: to the model, into the database, to a client.
 */
public final class ToolRunner {

    private final ExecutorService executor;
    private final Duration defaultTimeout;
    private final List<String> secrets;

    public ToolRunner(ExecutorService executor, Duration defaultTimeout) {
        this(executor, defaultTimeout, List.of());
    }

    public ToolRunner(ExecutorService executor, Duration defaultTimeout, Collection<String> secrets) {
        this.executor = executor;
        this.defaultTimeout = defaultTimeout;
        this.secrets = Redaction.searchable(secrets);
    }

    public Map<String, Object> run(Tool tool, Map<String, Object> args) {
        return run(tool, args, null);
    }

    /** Runs the tool for {@code caller} (null when unknown). */
    public Map<String, Object> run(Tool tool, Map<String, Object> args, Caller caller) {
        Map<String, Object> result = call(tool, args, caller);
        return secrets.isEmpty() ? result : redacted(result);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> redacted(Map<String, Object> result) {
        return (Map<String, Object>) redact(result);
    }

    /** Strings masked, maps and lists rebuilt, anything else as it is. */
    private Object redact(Object value) {
        if (value instanceof String text) {
            return Redaction.secrets(text, secrets);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(Redaction.secrets(String.valueOf(k), secrets), redact(v)));
            return copy;
        }
        if (value instanceof Collection<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(redact(item)));
            return copy;
        }
        return value;
    }

    private Map<String, Object> call(Tool tool, Map<String, Object> args, Caller caller) {
        Map<String, Object> arguments = args == null ? Map.of() : args;
        for (Object required : requiredParameters(tool)) {
            if (!arguments.containsKey(String.valueOf(required))) {
                return error("tool \"" + tool.name() + "\": missing required parameter \"" + required + "\"");
            }
        }
        Duration timeout = tool.timeout().orElse(defaultTimeout);
        Future<Map<String, Object>> call = executor.submit(() -> caller == null ? tool.call(arguments) : tool.call(arguments, caller));
        // The turn's deadline cancels the call (its thread interrupted: exec kills its process group).
        try (TurnAbort.Registration ending = TurnAbort.whileWaiting(() -> call.cancel(true))) {
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
