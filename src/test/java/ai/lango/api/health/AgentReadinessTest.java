package ai.lango.api.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import ai.lango.turns.Turns;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/** Readiness follows the agent's life: down while starting and while stopping, up in between. */
class AgentReadinessTest {

    @Test
    void notReadyWhileStarting() {
        assertEquals(HealthCheckResponse.Status.DOWN, AgentReadiness.response(Turns.State.STARTING, Optional.empty()).getStatus());
    }

    @Test
    void readyOnceTheAgentIsBuilt() {
        assertEquals(HealthCheckResponse.Status.UP, AgentReadiness.response(Turns.State.READY, Optional.empty()).getStatus());
    }

    @Test
    void notReadyWhileStoppingSoNoNewTurnsAreSent() {
        assertEquals(HealthCheckResponse.Status.DOWN, AgentReadiness.response(Turns.State.STOPPING, Optional.empty()).getStatus());
    }

    @Test
    void withoutAModelReadyAndSayingWhy() {
        HealthCheckResponse response = AgentReadiness.response(Turns.State.READY, Optional.of("no provider"));
        assertEquals(HealthCheckResponse.Status.UP, response.getStatus());
        assertEquals("no provider", response.getData().orElseThrow().get("model"));
    }
}
