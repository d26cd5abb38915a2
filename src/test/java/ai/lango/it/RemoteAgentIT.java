package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two Lango applications on loopback: "lango-remote" serves A2A as a single agent, and the
 * orchestrator of "lango-delegating" has it as a remote sub-agent, read from its card at start.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class RemoteAgentIT {

    private static final int PORT = ItPorts.HTTP;

    @Deployment(name = "remote", order = 1, testable = false)
    static WebArchive remote() {
        return ItDeployments.configured(ItDeployments.war("lango-remote.war"), "lango.a2a.enabled=true\n");
    }

    @Deployment(name = "delegating", order = 2, testable = false)
    static WebArchive delegating() {
        return ItDeployments.configured(ItDeployments.war("lango-delegating.war"), "lango.agent.multi-agent=true\n"
                + "lango.a2a.remote-agents=helper=http://localhost:" + PORT + "/lango-remote/.well-known/agent.json,"
                + "gone=http://127.0.0.1:1/.well-known/agent.json\n");
    }

    @Test
    void remoteAgentOnASecondServerAnswersADelegatedTask(@ArquillianResource @OperateOnDeployment("delegating") URL base)
            throws Exception {
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM); ItSocket client = ItSocket.connect(base)) {
            String ask = "ask the helper " + UUID.randomUUID();
            // answered by who asks, not queued: a turn an earlier test's server left behind may ask the model meanwhile
            fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> r.json().path("tools").toString().contains("\"transfer_to_agent\"")
                    ? Reply.openAiToolCall("call_r1", "transfer_to_agent", "{\"agent_name\":\"helper\"}")
                    : Reply.openAiText("The remote ", "agent answers."));

            client.send(ItSocket.chat("r1", "remote-" + UUID.randomUUID(), ask));
            List<JsonNode> frames = client.untilResponse();

            assertEquals("The remote agent answers.", frames.get(frames.size() - 1).path("result").path("response").asText(),
                    frames.toString());
            assertEquals("helper", ItSocket.events(frames, "agent.delegation").get(0).path("to").asText());
            List<FakeLlmServer.Recorded> requests = fake.requests().stream().filter(r -> r.body().contains(ask)).toList();
            assertEquals(2, requests.size());
            assertTrue(requests.get(0).body().contains("helper"), "the orchestrator is told about the remote agent");
            assertTrue(!requests.get(0).body().contains("gone"), "an unreachable remote agent is skipped");
            assertTrue(requests.get(1).body().contains(ask), "the remote agent's model got the task");
        }
    }
}
