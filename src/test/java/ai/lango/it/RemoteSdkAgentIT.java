package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lango's remote sub-agents against agents built with the A2A JavaScript SDK's server (.ci/a2a), one speaking
 * 1.0 and one only 0.3 (the SDK's compatibility layer): the orchestrator delegates, Lango's client picks each
 * agent's version from its card, the remote answer streams on to Lango's client, and a remote task's question
 * reaches Lango's user as a request for approval whose answer goes back on the same remote task.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// The remote agents' exchanges never reach the database; the turns around them are covered on both elsewhere.
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class RemoteSdkAgentIT {

    private static final Path LOG10 = Path.of("target", "a2a-js-agent-1.0.log");
    private static final Path LOG03 = Path.of("target", "a2a-js-agent-0.3.log");
    private static final List<Process> AGENTS = new ArrayList<>();
    private static boolean available;

    @Deployment(name = "js", testable = false)
    static WebArchive delegating() throws Exception {
        // The remote agents' cards are read when Lango starts: the agents run before it is deployed.
        int port10 = freePort();
        int port03 = freePort();
        available = Files.isDirectory(A2aSdkIT.PEERS.resolve("@a2a-js/sdk"));
        if (available) {
            AGENTS.add(agent(port10, "1.0", LOG10));
            AGENTS.add(agent(port03, "0.3", LOG03));
        }
        return ItDeployments.configured(ItDeployments.war("lango-js-remotes.war"), "lango.agent.multi-agent=true\n"
                + "lango.a2a.remote-agents=js10=http://127.0.0.1:" + port10 + "/.well-known/agent-card.json,"
                + "js03=http://127.0.0.1:" + port03 + "/.well-known/agent-card.json\n");
    }

    private static Process agent(int port, String version, Path log) throws Exception {
        Files.deleteIfExists(log);
        ProcessBuilder builder = new ProcessBuilder("node", Path.of("src/test/resources/a2a/sdk-agent.mjs").toAbsolutePath().toString(),
                String.valueOf(port), version, log.toAbsolutePath().toString()).redirectErrorStream(true)
                .redirectOutput(Path.of("target", "a2a-js-agent-" + version + ".out").toFile());
        builder.environment().put("LANGO_A2A_PEERS", A2aSdkIT.PEERS.toString());
        Process agent = builder.start();
        long until = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < until) {
            try (java.net.Socket probe = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
                return agent;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the A2A SDK's agent did not listen on " + port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @AfterAll
    static void stopAgents() {
        AGENTS.forEach(Process::destroy);
    }

    private static List<JsonNode> requests(Path log) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            lines.add(TestJson.MAPPER.readTree(line));
        }
        return lines;
    }

    @Test
    void anSdkAgentAnswersInItsOwnVersionAndItsAnswerStreamsOn(@ArquillianResource @OperateOnDeployment("js") URL base)
            throws Exception {
        assumeTrue(available, "A2A SDK tests skipped: run .ci/run (it installs .ci/a2a)");
        for (String name : List.of("js10", "js03")) {
            try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM); ItSocket client = ItSocket.connect(base)) {
                // Answered by this turn's own words: a turn left running by an earlier test must not take the reply.
                String ask = "what do you say, " + name + " " + UUID.randomUUID() + "?";
                fake.route(FakeLlmServer.lastUserMessageContains(ask),
                        r -> Reply.openAiToolCall("call_" + name, "transfer_to_agent", "{\"agent_name\":\"" + name + "\"}"));
                client.send(ItSocket.chat("r-" + name, "remote-" + UUID.randomUUID(), ask));
                List<JsonNode> frames = client.untilResponse();

                assertEquals("First. Second. Third.", frames.get(frames.size() - 1).path("result").path("response").asText(),
                        frames.toString());
                List<String> chunks = ItSocket.events(frames, "agent.chunk").stream().map(c -> c.path("chunk").asText()).toList();
                assertEquals(List.of("First. ", "Second. ", "Third."), chunks.subList(Math.max(0, chunks.size() - 3), chunks.size()),
                        "the remote answer streamed on: " + frames);
            }
        }
        JsonNode v10 = requests(LOG10).get(0);
        assertEquals("SendStreamingMessage", v10.path("method").asText());
        assertEquals("1.0", v10.path("version").asText());
        JsonNode v03 = requests(LOG03).get(0);
        assertEquals("message/stream", v03.path("method").asText(), "a 0.3-only agent is spoken to in 0.3");
        assertTrue(v03.path("version").isNull());
    }

    @Test
    void aRemoteTasksQuestionIsTheUsersToAnswerAndTheAnswerGoesBackOnTheSameTask(
            @ArquillianResource @OperateOnDeployment("js") URL base) throws Exception {
        assumeTrue(available, "A2A SDK tests skipped: run .ci/run (it installs .ci/a2a)");
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM); ItSocket client = ItSocket.connect(base)) {
            String ask = "book a table for 4 (" + UUID.randomUUID() + ")";
            fake.route(FakeLlmServer.lastUserMessageContains(ask),
                    r -> Reply.openAiToolCall("call_book", "transfer_to_agent", "{\"agent_name\":\"js10\"}"));
            client.send(ItSocket.chat("c1", "book-" + UUID.randomUUID(), ask));
            List<JsonNode> frames = new ArrayList<>();
            JsonNode request;
            do {
                request = client.next();
                frames.add(request);
            } while (!"approval.request".equals(request.path("event").asText()));
            JsonNode asked = request.path("payload");
            assertEquals("a2a_js10", asked.path("tool").asText(), asked.toString());
            assertEquals("May I book the table for 4?", asked.path("args").path("question").asText(), asked.toString());

            client.send("{\"type\":\"request\",\"id\":\"r1\",\"method\":\"approval.response\",\"params\":{\"approvalId\":\""
                    + asked.path("approvalId").asText() + "\",\"approved\":true}}");
            Map<String, JsonNode> responses = new HashMap<>();
            while (responses.size() < 2) {
                JsonNode frame = client.next();
                frames.add(frame);
                if ("response".equals(frame.path("type").asText())) {
                    responses.put(frame.path("id").asText(), frame);
                }
            }
            assertEquals("approved", responses.get("r1").path("result").path("status").asText(), frames.toString());
            assertEquals("Booked.", responses.get("c1").path("result").path("response").asText(), frames.toString());
        }
        List<JsonNode> sent = requests(LOG10);
        assertTrue(sent.size() >= 2, sent.toString());
    }
}
