package ai.lango.api.health;

import ai.lango.turns.Turns;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * /health/ready's "agent" check: UP once start-up has run the migrations and built the agent, DOWN
 * before that and while the server is stopping (it takes no new turns then), so a load balancer
 * sends turns only where they can run. Without a model the server is as ready as it will get: UP,
 * saying why turns will fail.
 */
@Readiness
@ApplicationScoped
public class AgentReadiness implements HealthCheck {

    @Inject
    Turns turns;

    @Override
    public HealthCheckResponse call() {
        return response(turns.state(), turns.unavailable());
    }

    static HealthCheckResponse response(Turns.State state, Optional<String> unavailable) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("state", state.name().toLowerCase(Locale.ROOT));
        unavailable.ifPresent(why -> data.put("model", why));
        return new HealthCheckResponse("agent", state == Turns.State.READY ? HealthCheckResponse.Status.UP
                : HealthCheckResponse.Status.DOWN, Optional.of(data));
    }
}
