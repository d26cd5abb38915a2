package ai.lango.provider;

import ai.lango.masking.MaskedLogs;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * The one log line of a model call that failed for good (after its retries): provider, model, HTTP
 * status, error code, attempts and duration. Never the key (messages are scrubbed where they are
 * made) and never the conversation: the line carries no message text, only these fields.
 */
public final class ProviderFailures {

    private static final Logger LOG = MaskedLogs.of(ProviderFailures.class);

    private ProviderFailures() {
    }

    public static void log(ProviderException failure, String model, int attempts, Duration took) {
        LOG.warning(() -> line(failure, model, attempts, took));
    }

    static String line(ProviderException failure, String model, int attempts, Duration took) {
        return "model call failed: provider=" + failure.provider() + " model=" + model
                + " status=" + (failure.status() == 0 ? "none" : Integer.toString(failure.status()))
                + " error=" + failure.kind().name().toLowerCase(java.util.Locale.ROOT)
                + failure.code().map(code -> " code=" + code).orElse("")
                + " attempts=" + attempts + " duration=" + took.toMillis() + "ms";
    }
}
