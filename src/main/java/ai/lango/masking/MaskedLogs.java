package ai.lango.masking;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Loggers whose records have every known secret masked before any handler sees them: the message
 * (its parameters formatted in first) and a thrown exception's messages. Every Lango class gets its
 * logger here.
 */
public final class MaskedLogs implements Filter {

    private static final MaskedLogs FILTER = new MaskedLogs();
    /** What names the work a record belongs to (a turn's trace id), appended to its message; null: nothing. */
    private static volatile java.util.function.Supplier<String> context = () -> null;
    private static final SimpleFormatter FORMAT = new SimpleFormatter();

    private MaskedLogs() {
    }

    /** The logger of {@code type}, masking. */
    public static Logger of(Class<?> type) {
        Logger logger = Logger.getLogger(type.getName());
        logger.setFilter(FILTER);
        return logger;
    }

    /** Every record logged from now on ends with {@code " [trace_id=…]"} when {@code traceId} names one. */
    public static void tagWith(java.util.function.Supplier<String> traceId) {
        context = traceId;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        String traceId = context.get();
        if (traceId != null) {
            record.setMessage(FORMAT.formatMessage(record) + " [trace_id=" + traceId + "]");
            record.setParameters(null);
            record.setResourceBundle(null);
        }
        SecretScanner scanner = SecretMask.scanner();
        if (scanner.isEmpty()) {
            return true;
        }
        String formatted = FORMAT.formatMessage(record);
        String masked = scanner.mask(formatted);
        if (formatted != null && (record.getParameters() != null || !masked.equals(formatted))) {
            record.setMessage(masked);
            record.setParameters(null);
            record.setResourceBundle(null);
        }
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            StringWriter trace = new StringWriter();
            thrown.printStackTrace(new PrintWriter(trace));
            String text = trace.toString();
            if (!scanner.mask(text).equals(text)) {
                record.setThrown(masked(thrown, scanner, 0));
            }
        }
        return true;
    }

    /** A copy of {@code thrown} and its causes whose messages are masked, with the same stack traces. */
    private static Throwable masked(Throwable thrown, SecretScanner scanner, int depth) {
        Throwable cause = thrown.getCause() != null && thrown.getCause() != thrown && depth < 16
                ? masked(thrown.getCause(), scanner, depth + 1) : null;
        Throwable copy = new MaskedThrowable(scanner.mask(thrown.toString()), cause);
        copy.setStackTrace(thrown.getStackTrace());
        return copy;
    }

    /** An exception as it was logged, its class name and message masked in its message. */
    static final class MaskedThrowable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MaskedThrowable(String described, Throwable cause) {
            super(described, cause, false, true);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
