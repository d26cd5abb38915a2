package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MCP servers as people copy them, on the real server and its sandbox: the README's example, written to
 * mcp.json verbatim, starts (it fetches its package with npx, so this part needs the npm registry and
 * says so when it is out of reach); the same entry without {@code "network": true}, a script outside the
 * sandbox and a server that takes its time show, in the admin API, why they do not start (the last
 * lines on stderr, a hint naming the option that fixes it), {@code failed} after the attempts, and a
 * turn that waits for a server still starting.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class McpStartIT extends FakeLlmIT {

    private static final Path NODE = Path.of("/usr/bin/node");
    private static final boolean AVAILABLE = Files.isExecutable(NODE) && Files.isExecutable(Path.of("/usr/bin/npx"))
            && Files.isExecutable(Path.of("/usr/bin/bwrap"));
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final Path DIR = Path.of("target", "it-mcp-start-" + System.getProperty("arquillian.launch", "liberty") + "-" + RUN)
            .toAbsolutePath();
    private static final Path CONFIG = DIR.resolve("mcp.json");
    private static final Path SLOW = Path.of("src/test/resources/mcp/slow-server.mjs").toAbsolutePath();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() throws IOException {
        Files.createDirectories(DIR);
        Files.writeString(CONFIG, "{\"mcpServers\": {}}");
        // three attempts (pauses of 1 and 2 s) keep the wait for "failed" short
        return ItDeployments.configured(ItDeployments.war("lango-mcp-start.war"), "lango.mcp.config=" + CONFIG + "\n"
                + "lango.mcp.start-attempts=3\n");
    }

    @ArquillianResource
    URL base;

    @BeforeEach
    void skipWithoutPeers() {
        assumeTrue(AVAILABLE, "MCP start tests skipped: they need Node.js (npx) and bubblewrap");
    }

    @AfterEach
    void noServers() throws IOException {
        Files.writeString(CONFIG, "{\"mcpServers\": {}}");
    }

    private JsonNode servers() throws Exception {
        return TestJson.MAPPER.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(base + "api/admin/mcp")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** Server {@code name} in the admin API once {@code until} holds for it (or after {@code seconds}). */
    private JsonNode server(String name, Predicate<JsonNode> until, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        JsonNode found = TestJson.MAPPER.missingNode();
        while (System.nanoTime() < deadline) {
            for (JsonNode server : servers().path("servers")) {
                if (name.equals(server.path("name").asText())) {
                    found = server;
                }
            }
            if (until.test(found)) {
                return found;
            }
            Thread.sleep(100);
        }
        return found;
    }

    /** The README's example: the first JSON block of its "MCP both ways" section, as it stands. */
    private static String readmeExample() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("## MCP both ways");
        int start = readme.indexOf("```json\n", section) + "```json\n".length();
        return readme.substring(start, readme.indexOf("```", start));
    }

    /** Whether npm reaches its registry from here (what npx in the sandbox, given the network, does). */
    private static boolean npmRegistryReachable() throws Exception {
        Process view = new ProcessBuilder("npm", "view", "@modelcontextprotocol/server-filesystem", "version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!view.waitFor(60, TimeUnit.SECONDS)) {
            view.destroyForcibly();
            return false;
        }
        return view.exitValue() == 0;
    }

    @Test
    void theReadmesExampleWrittenVerbatimStartsAndItsToolsWork() throws Exception {
        String example = readmeExample();
        assertTrue(example.contains("\"command\": \"npx\"") && example.contains("\"network\": true"), example);
        assumeTrue(npmRegistryReachable(), "the README's example fetches its package from the npm registry, which this"
                + " machine does not reach: that it starts is not proven here (what it says without network is)");
        Files.writeString(CONFIG, example);
        // npx fetches the package into the sandbox's fresh home at every start: seconds, more on a slow line
        JsonNode files = server("files", s -> "ready".equals(s.path("state").asText()), 120);
        assertEquals("ready", files.path("state").asText(), files.toString());
        assertTrue(files.path("tools").toString().contains("mcp_files_read_text_file"), files.toString());

        Path note = ItWorkspace.dir().resolve("readme-" + RUN + ".txt").toAbsolutePath();
        Files.writeString(note, "read through the README's example");
        String callId = "call_" + RUN;
        fake.enqueue(Reply.openAiToolCall(callId, "mcp_files_read_text_file", "{\"path\":\"" + note + "\"}"))
                .enqueue(Reply.openAiText("done"));
        HttpResponse<String> run = HTTP.send(HttpRequest.newBuilder(URI.create(base + "api/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(TestJson.runRequest("user", "readme-" + RUN, "read it"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, run.statusCode(), run.body());
        // the first start fetched the package; the user's own process fetches it again, and the call waits for it
        String seen = fake.requests().get(fake.requests().size() - 1).body();
        assertTrue(seen.contains("read through the README's example"), "the server read the user's workspace (\".\"): " + seen);
    }

    @Test
    void serversThatCannotStartSayWhyAndATurnWaitsForOneStillStarting() throws Exception {
        Path outside = Files.createDirectories(DIR.resolve("outside"));
        Path script = outside.resolve("server.js");
        Files.writeString(script, "console.log('never run: the sandbox does not hold this folder');\n");
        Files.writeString(CONFIG, "{\"mcpServers\": {\n"
                // as Claude Desktop's users have it: npx, no "network"
                + "  \"offline\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]},\n"
                + "  \"outside\": {\"command\": \"node\", \"args\": [\"" + script + "\"]},\n"
                + "  \"slow\": {\"command\": \"node\", \"args\": [\"" + SLOW + "\", \"4000\"], \"readOnly\": [\"" + SLOW.getParent() + "\"]}\n"
                + "}}\n");

        JsonNode slow = server("slow", s -> s.isObject(), 30);
        assertEquals("starting", slow.path("state").asText(), "the turn below starts while it is still starting: " + slow);
        fake.enqueue(Reply.openAiText("hello to you"));
        HttpResponse<String> run = HTTP.send(HttpRequest.newBuilder(URI.create(base + "api/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(TestJson.runRequest("user", "slow-" + RUN, "hi"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, run.statusCode(), run.body());
        assertTrue(fake.requests().get(fake.requests().size() - 1).body().contains("mcp_slow_hello"),
                "the turn waited for the server still starting and was offered its tools");

        JsonNode failed = server("outside", s -> "failed".equals(s.path("state").asText()), 60);
        assertEquals("failed", failed.path("state").asText(), "after 3 attempts it stays failed: " + failed);
        assertEquals(3, failed.path("failures").asInt(), failed.toString());
        assertTrue(failed.path("stderr").toString().contains("Cannot find module '" + script + "'"), failed.toString());
        assertTrue(failed.path("hint").asText().contains("\"readOnly\": [\"" + outside + "\"]"), failed.toString());
        assertTrue(failed.path("lastError").asText().contains("exit code 1"), failed.toString());

        // npx without network retries for a minute before it says anything: the initialize wait (30 s) ends first
        JsonNode offline = server("offline", s -> s.path("hint").isTextual(), 60);
        assertTrue(offline.path("hint").asText().contains("\"network\": true"), offline.toString());
        assertTrue(offline.path("lastError").asText().contains("did not answer initialize"), offline.toString());
        assertEquals("restarting", offline.path("state").asText(), offline.toString());

        Path log = Path.of(System.getProperty("it.wlp", "target/liberty/wlp"), "usr", "servers",
                System.getProperty("it.server.name", "lango-it"), "logs", "messages.log");
        assertTrue(Files.readAllLines(log).stream().anyMatch(line -> line.contains("MCP server \"outside\" failed 3 times in a row")
                && line.contains("Cannot find module") && line.contains("readOnly")), "the log says it as the admin API does");
    }
}
