package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The README's commands on a fresh clone, as a newcomer runs them: the working tree's files (tracked
 * and new, nothing ignored) copied to target/fresh-clone, then Liberty's own Maven goals on port
 * it.http.port + 3, a fake model on it.fake.port + 4. {@code mvn -DskipTests package liberty:start} builds
 * and starts the server {@code lango}, {@code mvn liberty:stop} stops it (it is down), it starts again and takes a turn,
 * {@code kill -9} ends it, {@code mvn liberty:start} brings the same server back on the same data (the
 * turn is there), a second {@code mvn liberty:run} is refused and leaves it running, untouched, and
 * {@code mvn liberty:stop} stops it. The dev UI answers throughout.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@Execution(ExecutionMode.CONCURRENT)
class FreshCloneIT {

    private static final int PORT = Integer.parseInt(System.getProperty("it.http.port", "19080")) + 3;
    private static final int FAKE_PORT = ItPorts.FAKE_LLM + 4;
    private static final Path CLONE = Path.of("target", "fresh-clone").toAbsolutePath();
    private static final Path SERVER = CLONE.resolve("target/liberty/wlp/usr/servers/lango");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void libertyGoalsStartStopAndRestartTheServerLangoAfterKill9WithItsHistory() throws Exception {
        assumeTrue(Files.isDirectory(Path.of(".git")) || Files.isRegularFile(Path.of(".git")), "needs a git checkout");
        copyWorkingTree();
        try (FakeLlmServer model = FakeLlmServer.start(FAKE_PORT)) {
            try {
                // The README's background start on a fresh clone: build (which creates and deploys the server), start.
                assertEquals(0, mvn("fresh-clone-start.log", "-DskipTests", "package", "liberty:start").waitFor(),
                        tail("fresh-clone-start.log"));
                assertTrue(waitFor("dev-ui/", 200, 120), "the dev UI answers after mvn liberty:start");
                assertTrue(get("dev-ui/").body().contains("<app-root>"));
                assertEquals(200, get("dev-ui/assets/config/runtime-config.json").statusCode());

                assertTrue(waitFor("health/ready", 200, 120), "ready");
                model.enqueue(FakeLlmServer.Reply.openAiText("noted"));
                HttpResponse<String> turn = post("api/run", turn("remember the blue door"));
                assertEquals(200, turn.statusCode(), turn.body());
                logHasNoWarningAfterANormalStartAndTurn();
                clientMistakesCostTheLogAtMostALineEach();
                aFailedModelCallIsLoggedOnceWithItsFields(model);

                assertEquals(0, mvn("fresh-clone-stop.log", "liberty:stop").waitFor(), tail("fresh-clone-stop.log"));
                assertTrue(down(), "mvn liberty:stop stopped the server");
                assertFalse(Files.exists(SERVER.resolve("workarea/.sRunning")), "Liberty says it stopped");

                assertEquals(0, mvn("fresh-clone-start-2.log", "liberty:start").waitFor(), tail("fresh-clone-start-2.log"));
                assertTrue(waitFor("health/ready", 200, 120), "ready again");
                assertTrue(get("api/apps/lango/users/ann/sessions/crash-me").body().contains("noted"), "the turn outlived the stop");
                model.enqueue(FakeLlmServer.Reply.openAiText("noted too"));
                HttpResponse<String> last = post("api/run", turn("the door has a brass knob"));
                assertEquals(200, last.statusCode(), last.body());

                // A dangerous call waits for a person when the server is killed: the request outlives kill -9.
                model.enqueue(FakeLlmServer.Reply.openAiToolCall("call_w", "fs_write", "{\"path\":\"door.txt\",\"content\":\"blue\"}"))
                        .enqueue(FakeLlmServer.Reply.openAiToolCall("call_d", "fs_delete", "{\"path\":\"door.txt\"}"));
                HttpResponse<String> asking = post("api/run", TestJson.runRequest("ann", "approve-me", "write and delete door.txt"));
                assertEquals(200, asking.statusCode(), asking.body());
                String confirmation = confirmationId(asking.body());

                ProcessHandle jvm = serverProcess().orElseThrow(() -> new AssertionError("the server lango runs"));
                jvm.destroyForcibly();
                jvm.onExit().get(30, TimeUnit.SECONDS);
                assertTrue(down(), "kill -9 ended it");

                assertEquals(0, mvn("fresh-clone-start-3.log", "liberty:start").waitFor(), tail("fresh-clone-start-3.log"));
                assertTrue(waitFor("health/ready", 200, 120), "mvn liberty:start after kill -9 starts it again");
                assertTrue(serverProcess().isPresent(), "as the server lango, not another");
                assertFalse(Files.exists(CLONE.resolve("target/liberty/wlp/usr/servers/lango-second")), "no second server");
                String history = get("api/apps/lango/users/ann/sessions/crash-me").body();
                assertTrue(history.contains("remember the blue door") && history.contains("the door has a brass knob")
                        && history.contains("noted too"), "every acknowledged turn survived kill -9: " + history);

                model.enqueue(FakeLlmServer.Reply.openAiText("deleted after the restart"));
                HttpResponse<String> approved = post("api/run", "{\"appName\":\"lango\",\"userId\":\"ann\",\"sessionId\":\"approve-me\","
                        + "\"newMessage\":{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"id\":\"" + confirmation
                        + "\",\"name\":\"adk_request_confirmation\",\"response\":{\"confirmed\":true}}}]}}");
                assertEquals(200, approved.statusCode(), "the request waiting at kill -9 is still answerable: " + approved.body());
                assertTrue(approved.body().contains("deleted after the restart"), approved.body());
                assertFalse(model.last().body().contains("does not exist"), "the approved delete ran once: " + model.last().body());

                Process second = mvn("fresh-clone-second.log", "liberty:run");
                assertTrue(second.waitFor(600, TimeUnit.SECONDS), "the second run ended");
                String output = Files.readString(Path.of("target", "fresh-clone-second.log"));
                assertNotEquals(0, second.exitValue(), output);
                assertTrue(output.contains("Server lango is already running; this run leaves it alone"), output);
                assertEquals(200, get("health/ready").statusCode(), "the running server still serves");
                String log = Files.readString(SERVER.resolve("logs/messages.log"));
                assertFalse(log.contains("CWWKZ0009I"), "its application was never stopped:\n" + log);
                assertFalse(log.contains("CWWKZ0003I"), "nor redeployed");
                assertFalse(log.contains("CWWKE0036I"), "nor the server stopped");

                assertEquals(0, mvn("fresh-clone-stop-2.log", "liberty:stop").waitFor(), tail("fresh-clone-stop-2.log"));
                assertTrue(down(), "mvn liberty:stop stops it");
            } finally {
                new ProcessBuilder(CLONE.resolve("target/liberty/wlp/bin/server").toString(), "stop", "lango")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
                serverProcess().ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** The id of ADK's confirmation call in a run's events. */
    private static String confirmationId(String events) throws IOException {
        for (com.fasterxml.jackson.databind.JsonNode event : TestJson.MAPPER.readTree(events)) {
            for (com.fasterxml.jackson.databind.JsonNode part : event.path("content").path("parts")) {
                if ("adk_request_confirmation".equals(part.path("functionCall").path("name").asText())) {
                    return part.path("functionCall").path("id").asText();
                }
            }
        }
        throw new AssertionError("the run did not stop for approval: " + events);
    }

    private static String turn(String text) {
        return TestJson.runRequest("ann", "crash-me", text);
    }

    /** messages.log's WARNING, ERROR and FATAL lines, and the lines of stack traces. */
    private static java.util.List<String> alarms() throws IOException {
        return Files.readAllLines(SERVER.resolve("logs/messages.log")).stream()
                .filter(line -> line.matches("^\\[[^]]+\\] \\S+ \\S+\\s+[WEF] .*") || line.startsWith("\tat ")
                        || line.startsWith("Caused by"))
                .toList();
    }

    /** A newcomer's first start and turn, on a machine without a GPU: not one warning. */
    private void logHasNoWarningAfterANormalStartAndTurn() throws Exception {
        Thread.sleep(2_000); // what follows a turn off its path (knowledge, learning, embeddings) has run
        assertEquals(java.util.List.of(), alarms(), "a normal start and turn log no warning");
    }

    /** Bad requests are the client's: a 4xx answer, and no log line about them at all. */
    private void clientMistakesCostTheLogAtMostALineEach() throws Exception {
        long before = Files.readAllLines(SERVER.resolve("logs/messages.log")).size();
        assertEquals(400, get("api/apps/lango/users/u/sessions/..%2F..%2Fetc").statusCode());
        assertEquals(404, get("favicon.ico").statusCode());
        assertEquals(404, get("no-such-page.html").statusCode());
        assertEquals(400, post("api/run", "{not json").statusCode());
        assertEquals(400, post("api/run", turn("x").replace("ann", "a/b")).statusCode());
        Thread.sleep(1_000); // Liberty writes its log shortly after
        java.util.List<String> after = Files.readAllLines(SERVER.resolve("logs/messages.log"));
        assertTrue(after.size() - before <= 5, "at most a line per bad request: " + after.subList((int) before, after.size()));
        assertEquals(java.util.List.of(), alarms(), "never a warning or a stack trace for a client's mistake");
        try (Stream<Path> reports = Files.list(SERVER.resolve("logs"))) {
            assertFalse(reports.anyMatch(p -> p.getFileName().toString().equals("ffdc")
                    && p.toFile().list() != null && p.toFile().list().length > 0), "nor an FFDC report");
        }
    }

    /** A model call that fails is one line: provider, model, status, error, attempts, duration; never the key or the text. */
    private void aFailedModelCallIsLoggedOnceWithItsFields(FakeLlmServer model) throws Exception {
        model.enqueue(FakeLlmServer.Reply.status(401, "{\"error\":{\"message\":\"Incorrect API key sk-it-secret-key\","
                + "\"code\":\"invalid_api_key\"}}"));
        HttpResponse<String> failed = post("api/run", turn("my secret diary entry"));
        assertTrue(failed.statusCode() >= 400, failed.body());
        Thread.sleep(1_000);
        java.util.List<String> alarms = alarms();
        assertEquals(1, alarms.size(), "one line for one failed call: " + alarms);
        String line = alarms.get(0);
        assertTrue(line.contains("model call failed: provider=openai model=gpt-4o-mini status=401 error=authentication"
                + " code=invalid_api_key attempts=1 duration="), line);
        String log = Files.readString(SERVER.resolve("logs/messages.log"));
        assertFalse(log.contains("sk-it-secret-key"), "never the key");
        assertFalse(log.contains("secret diary"), "never the conversation");
    }

    /** The JVM of the server lango, found by its command line (a server started with liberty:run writes no pid file). */
    private static java.util.Optional<ProcessHandle> serverProcess() {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("ws-server.jar") && c.contains(CLONE.toString())
                        && c.matches(".*\\slango(\\s.*)?$")).orElse(false))
                .findFirst();
    }

    private boolean down() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                get("health/live");
            } catch (IOException refused) {
                return true;
            } catch (Exception other) {
                throw new IllegalStateException(other);
            }
            Thread.sleep(500);
        }
        return false;
    }

    private void copyWorkingTree() throws Exception {
        if (Files.exists(CLONE)) {
            try (Stream<Path> old = Files.walk(CLONE)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Process list = new ProcessBuilder("git", "ls-files", "-co", "--exclude-standard").redirectErrorStream(true).start();
        String files = new String(list.getInputStream().readAllBytes());
        assertEquals(0, list.waitFor());
        for (String file : files.split("\n")) {
            Path source = Path.of(file);
            if (file.isBlank() || !Files.isRegularFile(source)) {
                continue; // deleted in the working tree
            }
            Path target = CLONE.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
    }

    /** {@code mvn -B <goal>} in the clone, as a user runs it, with the clone's port, data and the fake model. */
    private Process mvn(String log, String... goals) throws IOException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("mvn", "-B"));
        command.addAll(java.util.List.of(goals));
        ProcessBuilder builder = new ProcessBuilder(LibertyServer.besideTheChain(command)).directory(CLONE.toFile())
                .redirectErrorStream(true).redirectOutput(Path.of("target", log).toFile());
        builder.environment().put("LANGO_HTTP_PORT", String.valueOf(PORT));
        builder.environment().put("LANGO_DATA_DIR", CLONE.resolve("data").toString());
        builder.environment().put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + FAKE_PORT + "/v1");
        // The request left waiting at kill -9 must outlive the restart, which takes more than the default 30 s on a busy machine.
        builder.environment().put("LANGO_SECURITY_APPROVAL_TIMEOUT", "PT10M");
        builder.environment().remove("LANGO_TOOLS_WORKSPACE");
        builder.environment().remove("LANGO_AUTH_TOKEN");
        return builder.start();
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + "/" + path))
                .header("content-type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + "/" + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean waitFor(String path, int status, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                if (get(path).statusCode() == status) {
                    return true;
                }
            } catch (Exception notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        return false;
    }

    private static String tail(String log) throws IOException {
        String text = Files.readString(Path.of("target", log));
        return text.substring(Math.max(0, text.length() - 4000));
    }
}
