package ai.lango.learning;

/**
 * How sure Lango is that a learning's fix works: the mean of a Beta distribution over "the fix
 * works", {@code (successes + a) / (successes + failures + a + b)}, clamped to [0.1, 1.0], with a
 * prior that depends on where the learning came from:
 * <ul>
 *   <li>a fix someone saved ({@code save_learning}): a = 3, b = 2, so it starts at 0.60 — below the
 *       0.7 a fix needs to be applied by itself — and crosses it after two confirmations (0.71);</li>
 *   <li>an error recorded by itself, without a fix: a = 1, b = 1, so it starts at 0.50, and each
 *       time it happens again it sinks (0.33, 0.25, …): an unconfirmed error never gets near 0.7.</li>
 * </ul>
 * Every failure after a fix lowers it, every confirmation raises it, and neither count is ever
 * lost, so one bad day cannot erase a long record (unlike a ratio of a single success count to
 * occurrences, which starts a new learning below where it stood and can never reach 0.7).
 */
public final class Confidence {

    /** A fix is applied by itself only above this. */
    public static final double APPLY_THRESHOLD = 0.7;
    public static final double MIN = 0.1;
    public static final double MAX = 1.0;

    /** Where a learning came from, and so what it is believed before any evidence. */
    public enum Source {
        /** A fix given explicitly: by the model through save_learning, or an operator. */
        SAVED(3, 2),
        /** An error observed by the learning engine, no fix known. */
        OBSERVED(1, 1);

        final double a;
        final double b;

        Source(double a, double b) {
            this.a = a;
            this.b = b;
        }
    }

    private Confidence() {
    }

    /** The confidence after {@code successes} confirmations and {@code failures} failures. */
    public static double of(Source source, int successes, int failures) {
        double mean = (successes + source.a) / (successes + failures + source.a + source.b);
        return Math.max(MIN, Math.min(MAX, mean));
    }

    /** Whether a learning with this confidence and fix may be applied without asking. */
    public static boolean applies(double confidence, String fix) {
        return confidence > APPLY_THRESHOLD && fix != null && !fix.isBlank();
    }
}
