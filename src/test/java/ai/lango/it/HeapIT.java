package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The load that ran the server out of heap in the probe, on a server with its own -Xmx (512 MiB,
 * liberty/jvm.options): four sessions whose model keeps editing a 200 MB file of the workspace. The
 * edits stream, so afterwards the server still answers: ready (its heap check UP) and taking turns.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@Execution(ExecutionMode.CONCURRENT)
class HeapIT {

    private static final int SESSIONS = 4;
    private static final int EDITS = 3;
    private static final String FILE = "huge.txt";

    private static FakeLlmServer fake;
    private static LibertyServer server;
    private static Path workspace;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        int port = ItPorts.HTTP + 50;
        int fakePort = ItPorts.FAKE_LLM + 32;
        Path data = Path.of("target", "it-data-heap").toAbsolutePath();
        workspace = data.resolve("workspace");
        Files.createDirectories(workspace);
        try (BufferedWriter out = Files.newBufferedWriter(workspace.resolve(FILE))) {
            String line = "y".repeat(999) + "\n";
            for (int i = 0; i < 200_000; i++) {
                out.write(line);
            }
        }
        fake = FakeLlmServer.start(fakePort);
        // A user message asks for an edit; a tool result gets an answer: whatever the order of the sessions.
        fake.route(r -> lastRole(r).equals("user"), r -> Reply.openAiToolCall("call_" + UUID.randomUUID(), "fs_edit",
                "{\"path\":\"" + FILE + "\",\"startLine\":1,\"endLine\":1,\"content\":\"edited\"}"));
        fake.route(r -> lastRole(r).equals("tool"), r -> Reply.openAiText("Edited."));
        Map<String, String> environment = ItDatabase.HSQLDB.environment(data, port);
        environment.put("LANGO_TOOLS_WORKSPACE", workspace.toString());
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_A2A_ENABLED", "false");
        server = LibertyServer.copyOf(ItDatabase.HSQLDB.server("heap"), port, environment);
        server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (fake != null) {
            fake.close();
        }
        Files.deleteIfExists(workspace.resolve(FILE));
    }

    private static String lastRole(FakeLlmServer.Recorded request) {
        JsonNode messages = request.json() == null ? TestJson.MAPPER.createArrayNode() : request.json().path("messages");
        return messages.isEmpty() ? "" : messages.get(messages.size() - 1).path("role").asText();
    }

    private HttpResponse<String> run(String session, String text) throws Exception {
        String body = TestJson.runRequest("heap", session, text);
        return http.send(HttpRequest.newBuilder(server.base().resolve("api/run")).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(3)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void fourSessionsEditingA200MbFileLeaveTheServerAnswering() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(SESSIONS);
        try {
            List<CompletableFuture<Void>> sessions = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                String session = "heap-" + s + "-" + UUID.randomUUID();
                sessions.add(CompletableFuture.runAsync(() -> {
                    for (int e = 0; e < EDITS; e++) {
                        try {
                            HttpResponse<String> edit = run(session, "edit the first line again");
                            assertEquals(200, edit.statusCode(), edit.body());
                        } catch (Exception failed) {
                            throw new IllegalStateException(failed);
                        }
                    }
                }, clients));
            }
            for (CompletableFuture<Void> session : sessions) {
                session.get();
            }
        } finally {
            clients.shutdownNow();
        }
        HttpResponse<String> ready = http.send(HttpRequest.newBuilder(server.base().resolve("health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"name\":\"heap\",\"status\":\"UP\""), ready.body());
        assertEquals(200, run("heap-after-" + UUID.randomUUID(), "still there?").statusCode());
        assertTrue(Files.size(workspace.resolve(FILE)) > 199_000_000L, "the file is whole");
        try (var lines = Files.newBufferedReader(workspace.resolve(FILE))) {
            assertEquals("edited", lines.readLine());
        }
    }
}
