package ai.lango.turn;

import java.util.Optional;

/**
 * Where self-correction looks for a fix when a turn failed, and tells how the retry went. The
 * learning subsystem provides it; without it, no fix is ever found.
 */
public interface LearnedFixes {

    /** A fix someone learned for an error, and how sure the learnings are of it, in [0.1, 1.0]. */
    record Fix(long learningId, String fix, double confidence) {
    }

    /** The most confident fix known to {@code userId} (their own or shared) for the error, if any. */
    Optional<Fix> fixFor(String userId, String error);

    /** {@code userId}'s turn (an administrator's when {@code admin}), retried with {@code fix}, succeeded or failed again. */
    void outcome(String userId, boolean admin, Fix fix, boolean succeeded);

    LearnedFixes NONE = new LearnedFixes() {
        @Override
        public Optional<Fix> fixFor(String userId, String error) {
            return Optional.empty();
        }

        @Override
        public void outcome(String userId, boolean admin, Fix fix, boolean succeeded) {
        }
    };
}
