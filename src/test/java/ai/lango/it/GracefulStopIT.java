package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.OpenAi;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code server stop} while a turn runs: new turns are refused, a turn that ends within
 * lango.agent.shutdown-grace (20 s here) is answered and stored — its caller gets the whole answer on every edge
 * (/api/run, /api/run_sse, /ws, A2A) and the stop lasts as long as the turn, not the grace — one that runs longer
 * ends with an error stored in its session, and the chat page shows that error once it has reconnected to the
 * restarted server. Once per database (GracefulStopHsqldbIT, GracefulStopPostgresqlIT), each on a
 * server of its own, beside the other tests.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Execution(ExecutionMode.CONCURRENT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class GracefulStopIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private static final Duration GRACE = Duration.ofSeconds(20);
    private static final String STOPPED = "Lango was stopped before this turn finished";
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final ItDatabase database;
    private FakeLlmServer fake;
    private LibertyServer server;

    GracefulStopIT(ItDatabase database) {
        this.database = database;
    }

    @BeforeAll
    void startServer() throws Exception {
        database.assumeAvailable();
        int port = ItPorts.HTTP + 12 + database.offset();
        int fakePort = ItPorts.FAKE_LLM + 6 + database.offset();
        fake = FakeLlmServer.start(fakePort);
        Map<String, String> environment = database.environment(Path.of("target", database.name("it-data-stop")), port, "stop");
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_AGENT_SHUTDOWN_GRACE", GRACE.toString());
        environment.put("LANGO_A2A_ENABLED", "true");
        server = LibertyServer.copyOf(database.server("stop"), port,
                environment);
        server.start();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
        if (fake != null) {
            fake.close();
        }
    }

    private static String[] words(int count) {
        String[] deltas = new String[count];
        for (int i = 0; i < count; i++) {
            deltas[i] = "w" + i + " ";
        }
        return deltas;
    }

    /** After a test that stopped it, the server is started again. */
    @BeforeEach
    void running() throws Exception {
        if (server.process().isEmpty()) {
            server.start();
        }
    }

    /**
     * Liberty closes WebSocket connections when it quiesces, before the application stops: the
     * client may lose the rest of the stream, but the turn runs to its end and is stored whole,
     * which the chat page shows once it has reconnected.
     */
    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(1)
    void aTurnInFlightFinishesAndNewTurnsAreRefusedWhileTheServerStops() throws Exception {
        String session = "stop-finish-" + System.nanoTime();
        String[] deltas = words(30);
        String answer = String.join("", deltas);
        fake.reset().enqueue(Reply.paced(Duration.ofMillis(100), OpenAi.textFrames(deltas))); // about 3 s
        long logStart = Files.size(server.logs().resolve("messages.log"));
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            socket.send(ItSocket.chat("1", session, "tell me something"));
            JsonNode frame;
            do {
                frame = socket.next();
            } while (!"agent.chunk".equals(frame.path("event").asText()));
            Process[] stop = {server.stopAsync()};
            awaitLog(logStart, "Lango is stopping: waiting up to", () -> {
                // Twice in clean-clone CI runs on the loaded PostgreSQL half the first command never reached the
                // server (no CWWKE0055I in its log); asking again is what an operator does, and stop is idempotent.
                stop[0].destroy();
                stop[0] = server.stopAsync();
            });

            assertNewTurnRefused(session + "-new");
            assertTrue(stop[0].waitFor(2, TimeUnit.MINUTES), "server stop returns");
            awaitLog(logStart, "Lango is stopping: every turn in flight finished", () -> { });
            for (JsonNode received : socket.drain()) {
                if ("response".equals(received.path("type").asText())) {
                    assertEquals(answer, received.path("result").path("response").asText(), received.toString());
                }
            }
        }
        assertEquals(1, fake.requests().size(), "the refused turn never reached the model");

        server.start();
        JsonNode events = get("api/apps/lango/users/user/sessions/" + session).path("events");
        assertEquals(answer, events.path(events.size() - 1).path("content").path("parts").path(0).path("text").asText());
    }

    /**
     * A stop during streamed turns on every edge that starts one: each caller gets its whole answer on the
     * connection it asked on, and the server's stop (from the request to stop to stopped, in its own log) takes
     * as long as the turns, well under the grace.
     */
    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(2)
    void aStopDuringStreamedTurnsAnswersTheCallerOnEveryEdgeAndLastsAsLongAsTheTurns() throws Exception {
        String[] deltas = words(80);
        String answer = String.join("", deltas);
        fake.reset();
        for (int i = 0; i < 4; i++) {
            fake.enqueue(Reply.paced(Duration.ofMillis(100), OpenAi.textFrames(deltas))); // about 8 s each
        }
        String session = "stop-edges-" + System.nanoTime();
        long logStart = Files.size(server.logs().resolve("messages.log"));
        java.util.concurrent.CompletableFuture<Answered> run = post("api/run",
                TestJson.runRequest("user", session + "-run", "tell me something"));
        com.fasterxml.jackson.databind.node.ObjectNode streamed = (com.fasterxml.jackson.databind.node.ObjectNode)
                JSON.readTree(TestJson.runRequest("user", session + "-sse", "tell me something"));
        java.util.concurrent.CompletableFuture<Answered> sse = post("api/run_sse", streamed.put("streaming", true).toString());
        java.util.concurrent.CompletableFuture<Answered> a2a = post("api/a2a", "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"message/send\",\"params\":{\"message\":{\"role\":\"user\",\"kind\":\"message\","
                + "\"messageId\":\"" + session + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"tell me something\"}]}}}");
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            socket.send(ItSocket.chat("1", session + "-ws", "tell me something"));
            for (int i = 0; i < 300 && fake.requests().size() < 4; i++) {
                Thread.sleep(100);
            }
            assertEquals(4, fake.requests().size(), "every edge's turn reached the model");
            Process stop = server.stopAsync();
            for (int i = 0; i < 3 && (!stop.waitFor(2, TimeUnit.MINUTES) || server.process().isPresent()); i++) {
                stop.destroy(); // a command that never reached the server (seen on a loaded machine): asked again
                stop = server.stopAsync();
            }
            assertTrue(server.process().isEmpty(), "the server stopped");
            java.time.LocalDateTime requested = logTime(log(logStart), "CWWKE0055I");

            Answered ran = run.get(1, TimeUnit.MINUTES);
            assertEquals(200, ran.response().statusCode(), ran.response().body());
            assertTrue(ran.response().body().contains(answer), "/api/run got the whole answer: " + ran.response().body());
            Answered sent = sse.get(1, TimeUnit.MINUTES);
            assertTrue(sent.response().body().contains(answer) && !sent.response().body().contains("\"error\""),
                    "/api/run_sse got the whole answer: " + sent.response().body());
            Answered task = a2a.get(1, TimeUnit.MINUTES);
            assertTrue(task.response().body().contains("completed") && task.response().body().contains(answer.strip()),
                    "A2A got the whole answer: " + task.response().body());
            for (Answered edge : List.of(ran, sent, task)) {
                assertTrue(edge.at().isAfter(requested), "the answer came after the stop was asked for (" + requested + "), at "
                        + edge.at() + ": the turn was in flight");
            }
            List<JsonNode> frames = new java.util.ArrayList<>(socket.drain());
            assertTrue(frames.stream().anyMatch(f -> "response".equals(f.path("type").asText())
                    && answer.equals(f.path("result").path("response").asText())), "/ws got the whole answer: " + frames);
        }
        Duration stopped = Duration.between(logTime(log(logStart), "CWWKE0055I"), logTime(log(logStart), "CWWKE0036I"));
        assertTrue(stopped.compareTo(GRACE) < 0, "the stop took " + stopped + ", as long as the turns, not the grace " + GRACE);
    }

    /** An HTTP answer and when it came (UTC, as the server's log writes times). */
    record Answered(HttpResponse<String> response, java.time.LocalDateTime at) {
    }

    private String log(long from) throws IOException {
        return Files.readString(server.logs().resolve("messages.log")).substring((int) from);
    }

    private static java.time.LocalDateTime logTime(String log, String message) {
        java.util.regex.Matcher line = java.util.regex.Pattern.compile("\\[(\\d+/\\d+/\\d+, \\d+:\\d+:\\d+:\\d+) UTC\\][^\\n]*"
                + message).matcher(log);
        assertTrue(line.find(), message + " is in the log");
        return java.time.LocalDateTime.parse(line.group(1), java.time.format.DateTimeFormatter.ofPattern("M/d/yy, H:mm:ss:SSS"));
    }

    private java.util.concurrent.CompletableFuture<Answered> post(String path, String body) {
        return HTTP.sendAsync(HttpRequest.newBuilder(server.base().resolve(path)).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(2)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> new Answered(response, java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(3)
    void aTurnOutlivingTheGraceEndsWithAStoredErrorThatTheChatPageShowsAfterReconnecting() throws Exception {
        fake.reset().enqueue(Reply.paced(Duration.ofMillis(100), OpenAi.textFrames(words(300)))); // 30 s, past the grace
        boolean browser = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        ChromeDriver page = browser ? chromium() : null;
        String session = "stop-cut-" + System.nanoTime();
        try {
            ItSocket socket = null;
            if (page != null) {
                page.get(server.base().toString());
                page.executeScript("localStorage.setItem('lango.session.user', arguments[0]); location.reload();", session);
                new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElement(By.id("send")).isEnabled());
                page.findElement(By.id("input")).sendKeys("tell me a long story");
                page.findElement(By.id("send")).click();
                new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> !d.findElements(By.cssSelector(".msg.assistant .body p")).isEmpty());
            } else {
                socket = ItSocket.connect(server.base().toURL());
                socket.send(ItSocket.chat("1", session, "tell me a long story"));
                JsonNode frame;
                do {
                    frame = socket.next();
                } while (!"agent.chunk".equals(frame.path("event").asText()));
            }
            long stopping = System.nanoTime();
            Process stop = server.stopAsync();
            assertTrue(stop.waitFor(2, TimeUnit.MINUTES), "server stop returns");
            long stopSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - stopping);
            assertTrue(stopSeconds < GRACE.toSeconds() + 45, "the stop is bounded by the grace: took " + stopSeconds + " s");
            if (socket != null) {
                socket.close();
            }

            server.start();
            JsonNode events = get("api/apps/lango/users/user/sessions/" + session).path("events");
            JsonNode last = events.path(events.size() - 1);
            assertTrue(last.path("errorMessage").asText().startsWith(STOPPED), last.toString());
            assertEquals("user", events.path(0).path("author").asText());

            if (page != null) {
                WebElement error = new WebDriverWait(page, Duration.ofSeconds(90))
                        .until(d -> d.findElements(By.cssSelector(".msg.error")).stream()
                                .filter(e -> e.getText().startsWith(STOPPED)).findFirst().orElse(null));
                assertFalse(error.getText().isBlank());
                Files.write(Path.of("target/graceful-stop.png"), page.getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
            }
        } finally {
            if (page != null) {
                page.quit();
            }
        }
    }

    private static ChromeDriver chromium() {
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--window-size=1100,750");
        return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build(), options);
    }

    /** A turn sent while the server drains: the connection is refused, or the turn is, saying why. */
    private void assertNewTurnRefused(String session) throws InterruptedException {
        String body = TestJson.runRequest("user", session, "hi");
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/run"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertFalse(response.statusCode() == 200, "a new turn ran while the server was stopping: " + response.body());
            assertTrue(response.body().contains("stopping") || response.statusCode() == 404 || response.statusCode() == 503,
                    response.statusCode() + " " + response.body());
        } catch (IOException refused) {
            // the listener is already closed: refused too
        }
    }

    /** Waits up to 3 minutes for {@code text} in messages.log after {@code from}; {@code retry} runs each minute it is not there. */
    private void awaitLog(long from, String text, ThrowingRunnable retry) throws Exception {
        Path log = server.logs().resolve("messages.log");
        // Up to 3 minutes: on a loaded 2-core machine (the PostgreSQL half runs its own servers side by side) the
        // "server stop" command's own JVM has taken over a minute to reach the server.
        for (int i = 1; i <= 1800; i++) {
            String written = Files.readString(log);
            if (written.length() > from && written.substring((int) from).contains(text)) {
                return;
            }
            if (i % 600 == 0) {
                retry.run();
            }
            Thread.sleep(100);
        }
        Path stopLog = Path.of("target", server.name() + "-stop.log");
        throw new AssertionError("\"" + text + "\" never appeared in " + log + "; the stop command said: "
                + (Files.exists(stopLog) ? Files.readString(stopLog) : "nothing"));
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve(path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }
}
