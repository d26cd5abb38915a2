package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.a2a.A2aServer;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * An A2A caller who tries to fill the server, on a server of its own (512 MiB of heap, liberty/jvm.options) so
 * that what it measures is its own: messages refused for their size store nothing (no task, the database's
 * files do not grow); a user's stored tasks stay within lango.a2a.tasks-per-user, the oldest finished going
 * first; and twelve listings of large tasks at once each come in pages of bounded size, the server still ready
 * afterwards.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@Execution(ExecutionMode.CONCURRENT) // its server is its own: it runs beside the Arquillian tests
class A2aFloodIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    /** lango.a2a.tasks-per-user on this server, and how many tasks the listing test starts. */
    private static final int KEPT = 30;
    private static final int STARTED = 40;
    /** What a page may hold beyond its tasks' stored size: the JSON-RPC envelope. */
    private static final int ENVELOPE = 16 * 1024;

    private static FakeLlmServer fake;
    private static LibertyServer server;
    private static Path data;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        int port = ItPorts.HTTP + 90;
        int fakePort = ItPorts.FAKE_LLM + 90;
        data = Path.of("target", "it-data-a2a-flood-" + RUN).toAbsolutePath();
        Path workspace = Path.of("target", "it-workspace-a2a-flood-" + RUN).toAbsolutePath();
        Files.createDirectories(workspace);
        fake = FakeLlmServer.start(fakePort);
        fake.route(r -> true, r -> Reply.openAiText("Noted."));
        Map<String, String> environment = ItDatabase.HSQLDB.environment(data, port);
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_A2A_ENABLED", "true");
        environment.put("LANGO_A2A_TASKS_PER_USER", String.valueOf(KEPT));
        environment.put("LANGO_TOOLS_WORKSPACE", workspace.toString());
        server = LibertyServer.copyOf(ItDatabase.HSQLDB.server("a2a-flood"), port, environment);
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
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void messagesRefusedForTheirSizeLeaveNoTaskAndNoBytes() throws Exception {
        String context = "flood-" + RUN;
        int tasksBefore = totalSize(null);
        long bytesBefore = bytes(data.resolve("db"));
        int modelCallsBefore = fake.requests().size();
        String text = context + " " + "x".repeat(900_000);

        for (int i = 0; i < 20; i++) {
            JsonNode answer = rpc(send(context, "m-" + i, text));
            assertEquals(-32602, answer.at("/error/code").asInt(), "refused as the caller's: " + shortly(answer));
            assertTrue(answer.at("/error/message").asText().startsWith("message_too_large: "), shortly(answer));
            assertFalse(answer.has("result"), shortly(answer));
        }

        assertEquals(0, totalSize(context), "no task of the refused messages");
        assertEquals(tasksBefore, totalSize(null));
        long grown = bytes(data.resolve("db")) - bytesBefore;
        assertTrue(grown < 4L * 1024 * 1024, "20 refused messages of 900 KB grew the database by " + grown + " bytes");
        assertEquals(modelCallsBefore, fake.requests().size(), "no model call");
        HttpResponse<String> session = http.send(HttpRequest.newBuilder(server.base().resolve("api/admin/sessions/a2a-" + context))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, session.statusCode(), "no session either: " + session.body());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aUsersStoredTasksStayWithinTheirBoundTheOldestFinishedGoingFirst() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < STARTED; i++) {
            ids.add(completed("kept-" + RUN + "-" + i, "kept " + RUN + " " + i));
        }
        assertEquals(KEPT, totalSize(null), "the user's tasks within lango.a2a.tasks-per-user");
        for (int i = 0; i < STARTED; i++) {
            JsonNode read = rpc(get(ids.get(i)));
            if (i < STARTED - KEPT) {
                assertEquals(-32001, read.at("/error/code").asInt(), "task " + i + " (of the oldest) is gone: " + shortly(read));
            } else {
                assertEquals(ids.get(i), read.at("/result/id").asText(), "task " + i + " (of the newest) stays: " + shortly(read));
            }
        }
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void twelveListingsOfLargeTasksAtOnceComeInPagesOfBoundedSize() throws Exception {
        String large = "y".repeat(200_000);
        for (int i = 0; i < STARTED; i++) {
            completed("list-" + RUN + "-" + i, "list " + RUN + " " + i + " " + large);
        }
        int total = totalSize(null);

        ExecutorService callers = Executors.newFixedThreadPool(12);
        try {
            List<CompletableFuture<Set<String>>> listings = new ArrayList<>();
            for (int c = 0; c < 12; c++) {
                listings.add(CompletableFuture.supplyAsync(this::listEveryPage, callers));
            }
            for (CompletableFuture<Set<String>> listing : listings) {
                assertEquals(total, listing.get().size(), "every page was reached, each task once");
            }
        } finally {
            callers.shutdownNow();
        }
        HttpResponse<String> ready = http.send(HttpRequest.newBuilder(server.base().resolve("health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"name\":\"heap\",\"status\":\"UP\""), ready.body());
    }

    /** Sends {@code text} in a context of its own and waits for its task to complete: the task's id. */
    private String completed(String context, String text) throws Exception {
        JsonNode sent = rpc(send(context, context, text));
        assertEquals("TASK_STATE_COMPLETED", sent.at("/result/task/status/state").asText(), shortly(sent));
        return sent.at("/result/task/id").asText();
    }

    /** Every page of the caller's tasks, asking for the most a page may hold; each response within the byte bound. */
    private Set<String> listEveryPage() {
        Set<String> seen = new HashSet<>();
        String token = "";
        try {
            do {
                HttpResponse<String> page = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"pageSize\":100,"
                        + "\"pageToken\":\"" + token + "\"}}");
                int size = page.body().getBytes(StandardCharsets.UTF_8).length;
                assertTrue(size <= A2aServer.MAX_PAGE_BYTES + ENVELOPE, "a page of " + size + " bytes");
                JsonNode result = TestJson.MAPPER.readTree(page.body()).path("result");
                assertFalse(result.path("tasks").isEmpty(), "a page holds at least one task");
                result.path("tasks").forEach(t -> assertTrue(seen.add(t.path("id").asText()), "once: " + t.path("id")));
                token = result.path("nextPageToken").asText("");
            } while (!token.isEmpty());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return seen;
    }

    /** How many tasks the caller has (in {@code context}, when given), as ListTasks counts them. */
    private int totalSize(String context) throws Exception {
        JsonNode listed = rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{\"pageSize\":1"
                + (context == null ? "" : ",\"contextId\":\"" + context + "\"") + ",\"historyLength\":0}}");
        assertTrue(listed.has("result"), shortly(listed));
        return listed.at("/result/totalSize").asInt();
    }

    private static String send(String context, String messageId, String text) {
        ObjectNode request = TestJson.MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", messageId)
                .put("method", "SendMessage");
        ObjectNode message = request.putObject("params").putObject("message").put("role", "ROLE_USER")
                .put("messageId", messageId + "-" + RUN).put("contextId", context);
        message.putArray("parts").addObject().put("text", text);
        return request.toString();
    }

    private static String get(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"" + id + "\",\"historyLength\":0}}";
    }

    private JsonNode rpc(String body) throws Exception {
        HttpResponse<String> response = post(body);
        assertEquals(200, response.statusCode(), response.body().substring(0, Math.min(500, response.body().length())));
        return TestJson.MAPPER.readTree(response.body());
    }

    private HttpResponse<String> post(String body) throws Exception {
        return http.send(HttpRequest.newBuilder(server.base().resolve("api/a2a")).header("Content-Type", "application/json")
                .header("A2A-Version", "1.0").timeout(Duration.ofMinutes(2)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A response, cut for a failure's message. */
    private static String shortly(JsonNode response) {
        String text = response.toString();
        return text.length() <= 600 ? text : text.substring(0, 600) + "…";
    }

    /** The bytes of the files under {@code dir}. */
    private static long bytes(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
