package ai.lango.api.health;

import ai.lango.turns.Turns;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * /health/live's "server" check: a server that can answer this is not wedged, whatever its
 * database or model do (those are readiness: restarting would not mend them). It reports the turns
 * in flight.
 */
@Liveness
@ApplicationScoped
public class ServerLiveness implements HealthCheck {

    @Inject
    Turns turns;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("server").withData("turnsInFlight", turns.turnsInFlight()).up().build();
    }
}
