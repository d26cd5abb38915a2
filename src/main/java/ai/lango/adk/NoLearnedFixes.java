package ai.lango.adk;

import ai.lango.turn.LearnedFixes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * Self-correction finds no fix unless a subsystem provides {@link LearnedFixes}: it does so with
 * an {@code @Alternative @Priority} bean, which CDI then prefers to this one.
 */
@ApplicationScoped
class NoLearnedFixes {

    @Produces
    LearnedFixes none() {
        return LearnedFixes.NONE;
    }
}
