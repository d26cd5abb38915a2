package ai.lango.adk;

import java.util.Optional;

/**
 * Where self-correction finds a fix for a failed run (the learning engine implements it). A fix
 * is applied, once, only when its confidence exceeds {@link Corrections#FIX_CONFIDENCE_THRESHOLD}.
 */
public interface ErrorFixProvider {

    /** A suggested fix and how sure the learnings are of it, in [0.1, 1.0]. */
    record Fix(String fix, double confidence) {
    }

    Optional<Fix> fixFor(String error);

    ErrorFixProvider NONE = error -> Optional.empty();
}
