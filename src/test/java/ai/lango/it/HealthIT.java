package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Health for orchestration: readiness names the database and the agent, liveness the server. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
class HealthIT {

    private final HttpClient http = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + ItPorts.HTTP + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        return TestJson.MAPPER.readTree(response.body());
    }

    private static JsonNode check(JsonNode health, String name) {
        for (JsonNode check : health.path("checks")) {
            if (name.equals(check.path("name").asText())) {
                return check;
            }
        }
        throw new AssertionError("no check " + name + " in " + health);
    }

    @Test
    void readyOnceTheDatabaseAnswersAndTheAgentIsBuilt() throws Exception {
        // The overall status is not asserted: the test server's configured lango.war is never there (the
        // tests deploy their own WARs), and Liberty reports readiness DOWN for an application not started.
        JsonNode ready = get("/health/ready");
        assertEquals("UP", check(ready, "database").path("status").asText());
        JsonNode agent = check(ready, "agent");
        assertEquals("UP", agent.path("status").asText());
        assertEquals("ready", agent.path("data").path("state").asText());
    }

    @Test
    void liveWithTheTurnsInFlight() throws Exception {
        JsonNode live = get("/health/live");
        assertEquals("UP", live.path("status").asText());
        assertTrue(check(live, "server").path("data").has("turnsInFlight"), live.toString());
    }
}
