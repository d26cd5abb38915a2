package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MCP servers as the agent's tools, on the real server, against the reference servers from npm
 * (.ci/mcp): server-everything over stdio (in exec's sandbox, a process per user) and over
 * streamable HTTP, server-filesystem in the workspace. The scripted model calls their tools as
 * {@code mcp_<server>_<tool>}; what comes back reaches the model; a stdio server sees none of the
 * server's environment; an operator's "dangerous" waits for a person; a broken entry is reported with
 * its line and the others start; a changed file is picked up; the admin API lists and restarts.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// MCP reaches the database only through the agent's turns, which every other test covers on both: the embedded one only.
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class McpIT extends FakeLlmIT {

    static final Path PEERS = Path.of(".ci/mcp/node_modules").toAbsolutePath();
    static final Path NODE = Path.of("/usr/bin/node");
    private static final boolean AVAILABLE = Files.isDirectory(PEERS.resolve("@modelcontextprotocol/server-everything"))
            && Files.isExecutable(NODE) && Files.isExecutable(Path.of("/usr/bin/bwrap"));
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final Path CONFIG = Path.of("target", "it-mcp-" + System.getProperty("arquillian.launch", "liberty") + "-" + RUN,
            "mcp.json").toAbsolutePath();
    private static final int HTTP_PORT = freePort();
    private static Process httpServer;
    /** The same reference server on the legacy HTTP+SSE transport (MCP 2024-11-05). */
    private static final int SSE_PORT = freePort();
    private static Process sseServer;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() throws IOException {
        Files.createDirectories(CONFIG.getParent());
        Files.writeString(CONFIG, config(""));
        return ItDeployments.configured(ItDeployments.war("lango-mcp.war"), "lango.mcp.config=" + CONFIG + "\n");
    }

    /** The file: everything over stdio and HTTP, the filesystem server in the workspace, and {@code extra}. */
    static String config(String extra) {
        String everything = PEERS.resolve("@modelcontextprotocol/server-everything/dist/index.js").toString();
        String filesystem = PEERS.resolve("@modelcontextprotocol/server-filesystem/dist/index.js").toString();
        String workspace = ItWorkspace.dir().toAbsolutePath().toString();
        return "{\n  \"mcpServers\": {\n"
                + "    \"everything\": {\"command\": \"" + NODE + "\", \"args\": [\"" + everything + "\", \"stdio\"],\n"
                + "      \"env\": {\"GREETING\": \"hello\"}, \"readOnly\": [\"" + PEERS + "\"],\n"
                + "      \"safety\": {\"get-tiny-image\": \"dangerous\"}},\n"
                + "    \"web\": {\"url\": \"http://127.0.0.1:" + HTTP_PORT + "/mcp\"},\n"
                + "    \"legacy\": {\"url\": \"http://127.0.0.1:" + SSE_PORT + "/sse\"},\n"
                + "    \"files\": {\"command\": \"" + NODE + "\", \"args\": [\"" + filesystem + "\", \"" + workspace + "\"],\n"
                + "      \"readOnly\": [\"" + PEERS + "\"]}" + extra + "\n"
                + "  }\n}\n";
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** server-everything on {@code transport} (streamableHttp or sse), listening on {@code port}. */
    private static Process peerServer(String transport, int port) {
        try {
            ProcessBuilder builder = new ProcessBuilder(NODE.toString(),
                    PEERS.resolve("@modelcontextprotocol/server-everything/dist/index.js").toString(), transport)
                    .redirectErrorStream(true).redirectOutput(Path.of("target", "it-mcp-everything-" + transport + ".log").toFile());
            builder.environment().put("PORT", String.valueOf(port));
            Process peer = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(peer::destroyForcibly)); // a test JVM that dies leaves none behind
            return peer;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Started here, not when the class is loaded: McpConformanceIT reads this class's paths without running it. */
    @org.junit.jupiter.api.BeforeAll
    static void startHttpServers() {
        if (AVAILABLE) {
            httpServer = peerServer("streamableHttp", HTTP_PORT);
            sseServer = peerServer("sse", SSE_PORT);
        }
    }

    @AfterAll
    static void stopHttpServer() {
        for (Process peer : new Process[] {httpServer, sseServer}) {
            if (peer != null) {
                peer.destroyForcibly();
            }
        }
    }

    @ArquillianResource
    URL base;

    @BeforeEach
    void skipWithoutPeers() {
        assumeTrue(AVAILABLE, "MCP tests skipped: run .ci/run (it installs .ci/mcp) and install bubblewrap");
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The admin API's view of the servers once every one named is ready (or the wait ran out). */
    private JsonNode ready(String... names) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode list;
        while (true) {
            list = TestJson.MAPPER.readTree(call("GET", "api/admin/mcp", null).body());
            List<String> ready = new ArrayList<>();
            list.path("servers").forEach(s -> {
                if ("ready".equals(s.path("state").asText())) {
                    ready.add(s.path("name").asText());
                }
            });
            if (ready.containsAll(List.of(names)) || System.nanoTime() > deadline) {
                return list;
            }
            Thread.sleep(250);
        }
    }

    private static JsonNode server(JsonNode list, String name) {
        for (JsonNode server : list.path("servers")) {
            if (name.equals(server.path("name").asText())) {
                return server;
            }
        }
        return TestJson.MAPPER.missingNode();
    }

    /** A turn in which the model calls {@code tool}: the tool's answer as the model read it. */
    private JsonNode toolTurn(String tool, String args) throws Exception {
        return toolTurnOf("user", tool, args);
    }

    /** A turn of {@code user}'s in which the model calls {@code tool}: the tool's answer as the model read it. */
    private JsonNode toolTurnOf(String user, String tool, String args) throws Exception {
        String callId = "call_" + UUID.randomUUID().toString().substring(0, 8);
        fake.enqueue(Reply.openAiToolCall(callId, tool, args)).enqueue(Reply.openAiText("done"));
        int before = fake.requests().size();
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest(user, "mcp-" + UUID.randomUUID(), "use it"));
        assertEquals(200, run.statusCode(), run.body());
        for (FakeLlmServer.Recorded request : fake.requests().subList(before, fake.requests().size())) {
            for (JsonNode message : request.json().path("messages")) {
                if (callId.equals(message.path("tool_call_id").asText())) {
                    return TestJson.MAPPER.readTree(message.path("content").asText());
                }
            }
        }
        return TestJson.MAPPER.createObjectNode().put("events", run.body());
    }

    @Test
    void theServersToolsAreTheAgentsOverStdioAndHttpAndTheirAnswersReachTheModel() throws Exception {
        JsonNode list = ready("everything", "web", "files", "legacy");
        assertEquals("ready", server(list, "everything").path("state").asText(), list.toString());
        assertEquals("sse", server(list, "legacy").path("transport").asText(), list.toString());
        assertTrue(server(list, "everything").path("tools").toString().contains("mcp_everything_echo"), list.toString());
        assertEquals("http", server(list, "web").path("transport").asText());

        JsonNode echoed = toolTurn("mcp_everything_echo", "{\"message\":\"hi from lango\"}");
        assertEquals("Echo: hi from lango", echoed.path("text").asText(), echoed.toString());
        assertTrue(fake.requests().get(fake.requests().size() - 2).body().contains("mcp_web_get-sum"),
                "the model is offered the HTTP server's tools too");
        JsonNode sum = toolTurn("mcp_web_get-sum", "{\"a\":2,\"b\":3}");
        assertTrue(sum.path("text").asText().contains("5"), sum.toString());
        JsonNode overSse = toolTurn("mcp_legacy_get-sum", "{\"a\":20,\"b\":22}");
        assertTrue(overSse.path("text").asText().contains("42"), "over the legacy SSE transport: " + overSse);

        Files.writeString(ItWorkspace.dir().resolve("mcp-" + RUN + ".txt"), "written for the filesystem server");
        JsonNode read = toolTurn("mcp_files_read_text_file", "{\"path\":\"" + ItWorkspace.dir().resolve("mcp-" + RUN + ".txt")
                .toAbsolutePath() + "\"}");
        assertTrue(read.path("text").asText().contains("written for the filesystem server"), read.toString());
    }

    @Test
    void aStdioServerRunsInTheSandboxWithoutTheServersEnvironment() throws Exception {
        ready("everything");
        JsonNode env = toolTurn("mcp_everything_get-env", "{}");
        String text = env.path("text").asText();
        assertTrue(text.contains("GREETING"), "its own environment: " + text);
        assertFalse(text.contains("LANGO_") || text.contains("sk-it-secret"), "none of the server's: " + text);
    }

    @Test
    void aToolTheOperatorCallsDangerousWaitsForAPerson() throws Exception {
        ready("everything");
        fake.enqueue(Reply.openAiToolCall("call_img", "mcp_everything_get-tiny-image", "{}"));
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest("user", "mcp-danger-" + RUN, "show me"));
        assertTrue(run.body().contains("adk_request_confirmation"), "it waits for approval: " + run.body());
        fake.enqueue(Reply.openAiText("Not shown."));
        HttpResponse<String> denied = call("POST", "api/run", ItCallers.confirm("user", "mcp-danger-" + RUN,
                ItCallers.confirmationId(run.body()), false));
        assertTrue(denied.body().contains("A person denied this call"), denied.body());
    }

    @Test
    void aBrokenEntryIsReportedWithItsLineAndAChangedFileIsPickedUp() throws Exception {
        ready("everything", "web", "files");
        Files.writeString(CONFIG, config(",\n    \"broken\": {\"url\": \"ftp://nowhere\"},\n    \"echo2\": {\"command\": \"" + NODE
                + "\", \"args\": [\"" + PEERS.resolve("@modelcontextprotocol/server-everything/dist/index.js") + "\", \"stdio\"],"
                + " \"readOnly\": [\"" + PEERS + "\"]}"));
        JsonNode list = ready("everything", "web", "files", "echo2");
        assertEquals("ready", server(list, "echo2").path("state").asText(), list.toString());
        String problems = list.path("problems").toString();
        assertTrue(problems.contains("mcp.json line") && problems.contains("server \\\"broken\\\"") && problems.contains("ftp"),
                problems);
        assertEquals(202, call("POST", "api/admin/mcp/echo2/restart", null).statusCode());
        assertEquals("ready", server(ready("echo2"), "echo2").path("state").asText());
        assertEquals(404, call("POST", "api/admin/mcp/nope/restart", null).statusCode());
        Files.writeString(CONFIG, config(""));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (server(ready(), "echo2").isObject() && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        assertTrue(server(ready(), "echo2").isMissingNode(), "a server taken out of the file is gone");
    }

    @Test
    void aLongCallReportsItsProgressOnTheSocket() throws Exception {
        ready("everything");
        fake.enqueue(Reply.openAiToolCall("call_long", "mcp_everything_trigger-long-running-operation",
                "{\"duration\":2,\"steps\":4}")).enqueue(Reply.openAiText("Done at length."));
        try (ItSocket socket = ItSocket.connect(base)) {
            socket.send(ItSocket.chat("m1", "mcp-progress-" + RUN, "take your time"));
            List<JsonNode> frames = socket.untilResponse();
            assertFalse(ItSocket.events(frames, "agent.tool_progress").isEmpty(), "progress reached /ws: " + frames);
            assertTrue(ItSocket.events(frames, "agent.tool_progress").get(0).path("name").asText()
                    .equals("mcp_everything_trigger-long-running-operation"), frames.toString());
        }
    }

    private static String stdioEntry(String name, String extra) {
        return ",\n    \"" + name + "\": {\"command\": \"" + NODE + "\", \"args\": [\""
                + PEERS.resolve("@modelcontextprotocol/server-everything/dist/index.js") + "\", \"stdio\"], \"readOnly\": [\"" + PEERS
                + "\"]" + extra + "}";
    }

    @Test
    void aSecretGoesOnlyToTheServerItIsBoundToAndTheModelSeesItMasked() throws Exception {
        String name = "MCPKEY_" + RUN;
        String value = "v-" + UUID.randomUUID();
        HttpResponse<String> stored = call("PUT", "api/admin/secrets/" + name, "{\"value\":\"" + value
                + "\",\"tools\":[\"mcp_keyed\"]}");
        assertEquals(201, stored.statusCode(), stored.body());
        String env = ", \"env\": {\"API_KEY\": \"{{secret:" + name + "}}\"}";
        try {
            Files.writeString(CONFIG, config(stdioEntry("keyed", env) + stdioEntry("unbound", env)));
            JsonNode list = ready("keyed");
            JsonNode seen = toolTurn("mcp_keyed_get-env", "{}");
            String text = seen.toString();
            assertTrue(text.contains("API_KEY") && text.contains("[SECRET:" + name + "]"), "the server got it, masked to the model: " + text);
            assertFalse(text.contains(value), "the value never reaches the model: " + text);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!server(list, "unbound").path("lastError").asText().contains("binding") && System.nanoTime() < deadline) {
                Thread.sleep(250);
                list = ready();
            }
            assertTrue(server(list, "unbound").path("lastError").asText().contains("may go to mcp_keyed only, not to mcp_unbound"),
                    "a server the secret is not bound to does not start with it: " + server(list, "unbound"));
        } finally {
            Files.writeString(CONFIG, config(""));
            call("DELETE", "api/admin/secrets/" + name, null);
        }
    }

    @Test
    void aServerWhoseProcessDiesIsShownFailedAndStartedAgain() throws Exception {
        String folder = "crashy-" + RUN;
        try {
            Files.writeString(CONFIG, config(stdioEntry("crashy", ", \"cwd\": \"" + folder + "\"")));
            assertEquals("ready", server(ready("crashy"), "crashy").path("state").asText());
            List<ProcessHandle> sandbox = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                    .map(c -> c.contains("bwrap") && c.contains(folder)).orElse(false)).toList();
            assertFalse(sandbox.isEmpty(), "the crashy server's sandbox");
            // bwrap runs as two processes (outside and inside its PID namespace): what they run is the server
            sandbox.forEach(bwrap -> bwrap.descendants().filter(p -> !p.info().command().orElse("").endsWith("bwrap"))
                    .forEach(ProcessHandle::destroyForcibly));
            JsonNode crashy = TestJson.MAPPER.missingNode();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!crashy.path("lastError").asText().contains("exit code") && System.nanoTime() < deadline) {
                crashy = server(TestJson.MAPPER.readTree(call("GET", "api/admin/mcp", null).body()), "crashy");
                Thread.sleep(50);
            }
            assertTrue(crashy.path("state").asText().matches("failed|restarting"), crashy.toString());
            assertTrue(crashy.path("lastError").asText().contains("the server's process ended"), crashy.toString());
            assertEquals("ready", server(ready("crashy"), "crashy").path("state").asText(), "started again");
            assertEquals("Echo: back", toolTurn("mcp_crashy_echo", "{\"message\":\"back\"}").path("text").asText());
        } finally {
            Files.writeString(CONFIG, config(""));
        }
    }

    @Test
    void eachUserHasAConnectionOfTheirOwnAndAServerNamedForSomeUsersIsTheirsAlone() throws Exception {
        String ann = "ann-" + RUN;
        String bob = "bob-" + RUN;
        try {
            Files.writeString(CONFIG, config(stdioEntry("annonly", ", \"users\": [\"" + ann + "\"]")));
            int before = server(ready("everything", "annonly"), "everything").path("connections").asInt();
            assertEquals("Echo: ann's", toolTurnOf(ann, "mcp_annonly_echo", "{\"message\":\"ann's\"}").path("text").asText());
            String offeredToAnn = fake.requests().get(fake.requests().size() - 2).body();
            JsonNode refused = toolTurnOf(bob, "mcp_annonly_echo", "{\"message\":\"bob's\"}");
            assertFalse(refused.toString().contains("Echo: bob's"), "bob's turn cannot use ann's server: " + refused);
            assertFalse(fake.requests().get(fake.requests().size() - 2).body().contains("mcp_annonly_echo"), "nor is it offered to him");
            assertTrue(offeredToAnn.contains("mcp_annonly_echo"), "ann's turns are offered it");
            assertEquals("Echo: a", toolTurnOf(ann, "mcp_everything_echo", "{\"message\":\"a\"}").path("text").asText());
            assertEquals("Echo: b", toolTurnOf(bob, "mcp_everything_echo", "{\"message\":\"b\"}").path("text").asText());
            JsonNode list = ready("everything", "annonly");
            assertEquals(before + 2, server(list, "everything").path("connections").asInt(), "a connection of ann's and one of bob's: " + list);
            assertEquals(2, server(list, "annonly").path("connections").asInt(), "the operator's and ann's: " + list);
            assertEquals("[\"" + ann + "\"]", server(list, "annonly").path("users").toString());
        } finally {
            Files.writeString(CONFIG, config(""));
        }
    }

    @Test
    void twoToolsThatGetOneNameAreAWarningNamingBothAndTheSecondIsLeftOut() throws Exception {
        // names are cut at 64 characters: behind a server name of 48, get-resource-links and get-resource-reference are one
        String server = "clash" + "x".repeat(43);
        String name = "mcp_" + server + "_get-resourc";
        try {
            Files.writeString(CONFIG, config(stdioEntry(server, "")));
            Path log = Path.of(System.getProperty("it.wlp", "target/liberty/wlp"), "usr", "servers",
                    System.getProperty("it.server.name", "lango-it"), "logs", "messages.log");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String warned = "";
            while (warned.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(250);
                warned = Files.readAllLines(log).stream().filter(l -> l.contains("the MCP tool name " + name + " stands for two tools"))
                        .findFirst().orElse("");
            }
            assertTrue(warned.contains("get-resource-links") && warned.contains("get-resource-reference"), "the warning names both: "
                    + warned);
            JsonNode tools = server(ready(server), server).path("tools");
            assertEquals(1, java.util.stream.StreamSupport.stream(tools.spliterator(), false).filter(t -> t.asText().equals(name)).count(),
                    "one tool has the name: " + tools);
        } finally {
            Files.writeString(CONFIG, config(""));
        }
    }
}
