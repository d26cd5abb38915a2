package ai.lango.learning;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.security.Ownership;
import ai.lango.turn.LearnedFixes;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Self-correction's fixes from the learning store: for a failed run, the best-matching learning
 * with a fix and a confidence over 0.7 among the user's own and the shared ones; the retry's
 * outcome is counted on it when it is the user's own (or the user writes what is shared).
 */
@Alternative
@Priority(100)
@ApplicationScoped
public class StoredLearnedFixes implements LearnedFixes {

    private static final Logger LOG = MaskedLogs.of(StoredLearnedFixes.class);

    @Inject
    LangoSettings.Knowledge settings;

    @Inject
    LearningStore store;

    @Override
    public Optional<Fix> fixFor(String userId, String error) {
        if (!settings.enabled()) {
            return Optional.empty();
        }
        return store.matchingError(ErrorPatterns.pattern(error), Confidence.APPLY_THRESHOLD, true, Ownership.visibleTo(userId)).stream()
                .filter(l -> Confidence.applies(l.confidence(), l.fix()))
                .findFirst()
                .map(l -> new Fix(l.id(), l.fix(), l.confidence()));
    }

    @Inject
    Ownership ownership;

    @Override
    public void outcome(String userId, boolean admin, Fix fix, boolean succeeded) {
        // A learning counts its owner's evidence only: another user's retry cannot raise a shared fix.
        String owner = ownership.ownerOf(userId, admin);
        if (store.get(fix.learningId()).filter(l -> l.owner().equals(owner)).isEmpty()) {
            return;
        }
        store.outcome(fix.learningId(), succeeded);
        LOG.info(() -> "learned fix " + fix.learningId() + (succeeded ? " worked" : " did not work"));
    }
}
