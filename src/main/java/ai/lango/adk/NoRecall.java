package ai.lango.adk;

import ai.lango.turn.Recall;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * ADK's memory service recalls nothing unless a subsystem provides {@link Recall}: it does so with
 * an {@code @Alternative @Priority} bean, which CDI then prefers to this one.
 */
@ApplicationScoped
class NoRecall {

    @Produces
    Recall none() {
        return Recall.NONE;
    }
}
