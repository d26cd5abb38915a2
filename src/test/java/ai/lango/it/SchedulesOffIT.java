package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** With lango.schedules.enabled=false: the API answers 404 and the agent is offered no schedule tool. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag(ItDatabase.HSQLDB_TAG) // a setting read at start: the database underneath is tested elsewhere
class SchedulesOffIT extends FakeLlmIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-schedules-off.war"), "lango.schedules.enabled=false\n");
    }

    @ArquillianResource
    URL base;

    @Test
    void noScheduleIsMadeAndTheAgentHasNoScheduleTools() throws Exception {
        ItCallers callers = new ItCallers(base, null);
        HttpResponse<String> made = callers.call("POST", "api/schedules", null, "{\"message\":\"x\",\"every\":\"PT1H\"}");
        assertEquals(404, made.statusCode(), made.body());
        assertTrue(made.body().contains("schedules_disabled") && made.body().contains("lango.schedules.enabled"), made.body());
        assertEquals(404, callers.call("GET", "api/schedules", null, null).statusCode());

        fake.enqueue(Reply.openAiText("No schedules here."));
        HttpResponse<String> ran = callers.call("POST", "api/run", null, TestJson.runRequest("user", "off-" + RUN, "remind me"));
        assertEquals(200, ran.statusCode(), ran.body());
        List<String> offered = new ArrayList<>();
        for (JsonNode tool : fake.last().json().path("tools")) {
            offered.add(tool.path("function").path("name").asText());
        }
        assertFalse(offered.isEmpty(), "the agent has tools: " + offered);
        assertTrue(offered.stream().noneMatch(name -> name.startsWith("schedule_")), "no schedule tool: " + offered);
    }
}
