package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.OpenAi;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Turns that survive a crash, tried as users meet it: a server of its own, killed with SIGKILL (never stopped) with
 * turns in flight, started again. A turn cut mid-stream finishes by itself, stored once; a command cut while it ran
 * is not run again until a person says so on a card that says it may or may not have taken effect (denied: the model
 * is told; approved: it runs once); a read cut mid-call is simply made again; an A2A task goes on in its state and a
 * /ws client that reconnects sees the resumed turn. Then the soak: {@code it.soak.kills} kills (1 in CI, more with
 * {@code -Pcrash-soak}) at each of five points of a turn, with a command that appends to a file: how many turns
 * finished, how many wait for a person, how many side effects ran twice (must be 0), and the time from the restart
 * to the turn's end.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Execution(ExecutionMode.CONCURRENT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class DurableTurnIT {

    private static final String USER = "user";
    private static final int KILLS = Integer.getInteger("it.soak.kills", 1);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    private final ItDatabase database;
    private FakeLlmServer fake;
    private LibertyServer server;
    private Path workspace;
    /** What the model answers next, per tag (a tag is in every message of a session): one reply per request. */
    private final Map<String, Deque<Reply>> script = new ConcurrentHashMap<>();

    DurableTurnIT(ItDatabase database) {
        this.database = database;
    }

    private Path dataDir() {
        return Path.of("target", database.name("it-data-durable")).toAbsolutePath();
    }

    @BeforeAll
    void startServer() throws Exception {
        database.assumeAvailable();
        // 19126/19127 by default: CrashIT's second fake models take HTTP + 40 and + 44 (FAKE_LLM + 21, + 25)
        int port = ItPorts.HTTP + 46 + database.offset();
        int fakePort = ItPorts.FAKE_LLM + 70 + 2 * database.offset();
        CrashIT.deleteRecursively(dataDir());
        workspace = Files.createDirectories(dataDir().resolve("workspace"));
        fake = FakeLlmServer.start(fakePort);
        fake.route(request -> true, request -> {
            String tag = tagOf(request);
            Deque<Reply> replies = tag == null ? null : script.get(tag);
            Reply next = replies == null ? null : replies.poll();
            return next != null ? next : Reply.openAiText("(no reply scripted for " + tag + ")");
        });
        server = LibertyServer.copyOf(database.server("durable"), port, environment(port, fakePort));
        server.start();
    }

    private Map<String, String> environment(int port, int fakePort) {
        Map<String, String> environment = database.environment(dataDir(), port, "durable");
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_TOOLS_EXEC_ENABLED", "true");
        environment.put("LANGO_TOOLS_WORKSPACE", workspace.toString());
        environment.put("LANGO_SECURITY_APPROVAL_TIMEOUT", "PT10M");
        environment.put("LANGO_AGENT_MAX_TURNS", "10");
        return environment;
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

    /** The tag of a request: "[t-…]" in its first user message. */
    private static String tagOf(FakeLlmServer.Recorded request) {
        if (request.json() == null) {
            return null;
        }
        for (JsonNode message : request.json().path("messages")) {
            if ("user".equals(message.path("role").asText())) {
                java.util.regex.Matcher tag = java.util.regex.Pattern.compile("\\[t-[^\\]]+\\]").matcher(message.path("content").toString());
                if (tag.find()) {
                    return tag.group();
                }
            }
        }
        return null;
    }

    private String tag(String name) {
        String tag = "[t-" + name + "-" + RUN + "]";
        script.put(tag, new ArrayDeque<>());
        return tag;
    }

    private void replies(String tag, Reply... replies) {
        script.get(tag).addAll(List.of(replies));
    }

    private List<FakeLlmServer.Recorded> requestsOf(String tag) {
        return fake.requests().stream().filter(r -> tag.equals(tagOf(r))).toList();
    }

    private static String[] words(String prefix, int count) {
        String[] words = new String[count];
        for (int i = 0; i < count; i++) {
            words[i] = prefix + i + " ";
        }
        return words;
    }

    @Test
    @Order(1)
    @Execution(ExecutionMode.SAME_THREAD)
    void everyKindOfCutTurnGoesOnAfterOneKill() throws Exception {
        Path marks = workspace.resolve("marks-" + RUN);
        Path pipe = workspace.resolve("pipe-" + RUN);
        assertEquals(0, new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor(), "mkfifo");

        String approved = tag("approved");
        String denied = tag("denied");
        String read = tag("read");
        String streamed = tag("streamed");
        String task = tag("task");
        replies(approved, Reply.openAiToolCall("call_a_" + RUN, "exec", command("sleep 6; echo approved >> " + marks.getFileName())),
                Reply.openAiText("The approved command ran."));
        replies(denied, Reply.openAiToolCall("call_d_" + RUN, "exec", command("sleep 6; echo denied >> " + marks.getFileName())),
                Reply.openAiText("I will not assume it ran."));
        replies(read, Reply.openAiToolCall("call_r_" + RUN, "fs_read", "{\"path\":\"" + pipe.getFileName() + "\"}"),
                Reply.openAiText("The pipe said it."));
        replies(streamed, Reply.paced(Duration.ofMillis(20), OpenAi.textFrames(words("cut", 400))),
                Reply.delayed(Duration.ofSeconds(3), Reply.paced(Duration.ofMillis(10), OpenAi.textFrames(words("whole", 40)))));
        replies(task, Reply.delayed(Duration.ofSeconds(60), Reply.openAiText("never")),
                Reply.delayed(Duration.ofSeconds(3), Reply.openAiText("The task's answer.")));

        String approvedSession = "durable-approved-" + RUN;
        String deniedSession = "durable-denied-" + RUN;
        String readSession = "durable-read-" + RUN;
        String streamedSession = "durable-streamed-" + RUN;
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            // two approved commands sleeping, a read blocked on a pipe, an answer streaming, an A2A task waiting for the model
            approveAndLetRun(socket, "a", approvedSession, "run the command " + approved);
            approveAndLetRun(socket, "d", deniedSession, "run the other command " + denied);
            socket.send(ItSocket.chat("r", readSession, "read the pipe " + read));
            awaitEvent(socket, "agent.tool_call", readSession);
            String taskId = a2a("SendMessage", "{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m-" + RUN + "\",\"contextId\":\"durable-"
                    + RUN + "\",\"parts\":[{\"text\":\"answer as a task " + task + "\"}]},\"configuration\":{\"returnImmediately\":true}}")
                    .at("/result/task/id").asText();
            socket.send(ItSocket.chat("s", streamedSession, "tell a long story " + streamed));
            for (int chunks = 0; chunks < 5; ) {
                JsonNode frame = socket.next();
                if ("agent.chunk".equals(frame.path("event").asText()) && streamedSession.equals(frame.at("/payload/sessionKey").asText())) {
                    chunks++;
                }
            }
            awaitTrue(() -> !requestsOf(task).isEmpty(), "the task's turn called the model");
            Thread.sleep(1000); // the commands sleep, the read waits on its pipe
            server.kill();
            assertFalse(Files.exists(marks), "no command finished before the kill");

            server.start();
            try (ItSocket again = ItSocket.connect(server.base().toURL())) {
                // The A2A task goes on in its state: a subscriber sees it finish.
                CompletableFuture<String> subscribed = CompletableFuture.supplyAsync(() -> subscribe(taskId));
                // The page's socket is shown the resumed stream and the cards that ask to run the cut commands again.
                Map<String, JsonNode> cards = new LinkedHashMap<>();
                List<JsonNode> streamedFrames = new ArrayList<>();
                long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                while ((cards.size() < 2 || streamedFrames.stream().noneMatch(f -> "agent.done".equals(f.path("event").asText())))
                        && System.nanoTime() < until) {
                    JsonNode frame = again.next();
                    String session = frame.at("/payload/sessionKey").asText();
                    if ("approval.request".equals(frame.path("event").asText())) {
                        cards.put(session, frame.path("payload"));
                    } else if (streamedSession.equals(session)) {
                        streamedFrames.add(frame);
                    }
                }
                JsonNode card = cards.get(approvedSession);
                assertNotNull(card, "a card to run the cut command again: " + cards);
                assertTrue(card.at("/notes/rerun").asText().contains("may or may not have taken effect"), card.toString());
                assertNotNull(cards.get(deniedSession), cards.toString());
                assertEquals("agent.resumed", streamedFrames.get(0).path("event").asText(), streamedFrames.toString());
                assertEquals("the server restarted; continuing", streamedFrames.get(0).at("/payload/note").asText());
                assertEquals(String.join("", words("whole", 40)), streamedFrames.stream()
                        .filter(f -> "agent.chunk".equals(f.path("event").asText())).map(f -> f.at("/payload/chunk").asText())
                        .reduce("", String::concat), "the rest of its stream");

                // The cut answer is asked again and stored once, after its question, stored once.
                List<String> story = texts(streamedSession);
                assertEquals(1, story.stream().filter(t -> t.startsWith("user: tell a long story")).count(), story.toString());
                assertEquals(List.of("model: " + String.join("", words("whole", 40))),
                        story.stream().filter(t -> t.startsWith("model: ")).toList(), story.toString());

                // Nothing ran again by itself: the commands wait for a person.
                Thread.sleep(2000);
                assertFalse(Files.exists(marks), "a cut command ran again without a person");

                // The read is simply made again: it waits on the pipe until it is written.
                Files.writeString(pipe, "the pipe's words\n");
                awaitTrue(() -> texts(readSession).contains("model: The pipe said it."), "the read was made again");
                JsonNode pipeResult = requestsOf(read).get(requestsOf(read).size() - 1).json().path("messages");
                assertTrue(pipeResult.toString().contains("the pipe's words"), pipeResult.toString());

                // Denied: the model is told it may or may not have run; the command does not run.
                again.send(answer("deny", cards.get(deniedSession).path("approvalId").asText(), false));
                awaitTrue(() -> texts(deniedSession).contains("model: I will not assume it ran."), "the denied turn ended");
                String told = requestsOf(denied).get(requestsOf(denied).size() - 1).json().path("messages").toString();
                assertTrue(told.contains("may or may not have taken effect"), told);

                // Approved: it runs, once.
                again.send(answer("approve", card.path("approvalId").asText(), true));
                awaitTrue(() -> texts(approvedSession).contains("model: The approved command ran."), "the approved turn ended");
                assertEquals(List.of("approved"), Files.readAllLines(marks), "the approved command ran once, the denied never");

                String events = subscribed.get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertTrue(events.contains("TASK_STATE_COMPLETED") && events.contains("The task's answer."), events);
                assertEquals("TASK_STATE_COMPLETED", a2a("GetTask", "{\"id\":\"" + taskId + "\"}").at("/result/status/state").asText());
            }
        }
    }

    /** Sends the chat, approves the command the model asks for, and returns once the command runs. */
    private void approveAndLetRun(ItSocket socket, String id, String session, String message) throws Exception {
        socket.send(ItSocket.chat(id, session, message));
        JsonNode card = awaitEvent(socket, "approval.request", session);
        socket.send(answer(id + "-ok", card.at("/payload/approvalId").asText(), true));
    }

    private static JsonNode awaitEvent(ItSocket socket, String name, String session) throws InterruptedException {
        while (true) {
            JsonNode frame = socket.next();
            if (name.equals(frame.path("event").asText()) && session.equals(frame.at("/payload/sessionKey").asText())) {
                return frame;
            }
        }
    }

    private static String answer(String id, String approvalId, boolean approved) {
        return "{\"type\":\"request\",\"id\":\"" + id + "\",\"method\":\"approval.response\",\"params\":{\"approvalId\":\""
                + approvalId + "\",\"approved\":" + approved + "}}";
    }

    private static String command(String command) {
        return TestJson.MAPPER.createObjectNode().put("command", command).toString();
    }

    /**
     * The chat page as its user meets a crash: an answer streaming in the page, the server killed and started again.
     * The page reconnects by itself and shows the turn going on (a new answer saying the server restarted), then the
     * whole answer; reloaded, the chat holds the question once and the resumed answer, not the half one.
     */
    @Test
    @Order(3)
    @Execution(ExecutionMode.SAME_THREAD)
    void thePageShowsTheCutTurnGoingOnAfterARestart() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(database == ItDatabase.HSQLDB, "the page does not depend on the database");
        String tag = tag("page");
        // cut mid-stream; asked again after the restart, the model answers once the page has reconnected (its backoff)
        replies(tag, Reply.paced(Duration.ofMillis(30), OpenAi.textFrames(words("half", 400))),
                Reply.delayed(Duration.ofSeconds(35), Reply.paced(Duration.ofMillis(20), OpenAi.textFrames(
                        "The page's ", "resumed ", "answer."))));
        org.openqa.selenium.chrome.ChromeDriver page = ItBrowser.start();
        try {
            page.get(server.base().toString());
            var wait = new org.openqa.selenium.support.ui.WebDriverWait(page, Duration.ofSeconds(120));
            var answers = org.openqa.selenium.By.cssSelector(".msg.assistant .body");
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.elementToBeClickable(org.openqa.selenium.By.id("send")));
            page.findElement(org.openqa.selenium.By.id("input")).sendKeys("tell a long story " + tag);
            page.findElement(org.openqa.selenium.By.id("send")).click();
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(answers, "half5 "));
            server.kill();
            server.start();
            try {
                wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(
                        org.openqa.selenium.By.cssSelector(".msg.assistant .resumed-note"), "the server restarted; continuing"));
                wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(
                        org.openqa.selenium.By.cssSelector(".msg.assistant:last-child .body"), "The page's resumed answer."));
            } catch (org.openqa.selenium.TimeoutException e) {
                ItBrowser.screenshot(page, "durable-turn-page-timeout");
                throw new AssertionError("the page did not show the resumed turn: "
                        + page.findElement(org.openqa.selenium.By.id("messages")).getAttribute("innerText"), e);
            }
            ItBrowser.screenshot(page, "durable-turn-page-resumed");
            page.navigate().refresh();
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(answers,
                    "The page's resumed answer."));
            String shown = page.findElement(org.openqa.selenium.By.id("messages")).getAttribute("innerText");
            assertEquals(1, shown.split(java.util.regex.Pattern.quote(tag), -1).length - 1, "the question once: " + shown);
            assertFalse(shown.contains("half5 "), "the half answer is not kept: " + shown);
            assertEquals(2, requestsOf(tag).size(), "the model was asked again once");
        } finally {
            page.quit();
        }
    }

    /** A point of a turn where the soak kills the server. */
    private enum Point { MODEL_FIRST_CHUNK, MID_STREAM, CALL_STORED, TOOL_RUNNING, AFTER_TOOL_RESULT }

    /** What became of the turns cut at one point. */
    private static final class Figures {
        int kills;
        int finished;
        int waited;
        int duplicates;
        final List<Long> restartToEndMillis = new ArrayList<>();
    }

    @Test
    @Order(2)
    @Execution(ExecutionMode.SAME_THREAD)
    void theSoakRunsNoSideEffectTwiceWithoutAPerson() throws Exception {
        Path log = workspace.resolve("soak-" + RUN + ".log");
        Map<Point, Figures> figures = new LinkedHashMap<>();
        for (Point point : Point.values()) {
            Figures f = new Figures();
            figures.put(point, f);
            for (int kill = 0; kill < KILLS; kill++) {
                cutAndResume(point, kill, log, f);
            }
        }
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        for (Map.Entry<Point, Figures> entry : figures.entrySet()) {
            Figures f = entry.getValue();
            List<Long> times = f.restartToEndMillis.stream().sorted().toList();
            System.out.printf("DurableTurnIT soak on %s, %s: %d kills, %d turns finished, %d waited for a person,"
                            + " %d side effects ran twice (target 0); restart to the turn's end median %d ms, max %d ms%n",
                    database, entry.getKey(), f.kills, f.finished, f.waited, f.duplicates,
                    times.isEmpty() ? 0 : times.get(times.size() / 2), times.isEmpty() ? 0 : times.get(times.size() - 1));
            assertEquals(0, f.duplicates, entry.getKey() + ": side effects ran twice: " + lines);
            assertEquals(f.kills, f.finished + f.waited, entry.getKey() + ": every cut turn finished or waits for a person");
        }
    }

    /** One kill at {@code point}: the turn cut there, the server started again, and the turn's end awaited. */
    private void cutAndResume(Point point, int kill, Path log, Figures figures) throws Exception {
        String tag = tag("soak-" + point.name().toLowerCase(java.util.Locale.ROOT) + "-" + kill);
        String session = "durable-soak-" + point.ordinal() + "-" + kill + "-" + RUN;
        String line = point.name() + "-" + kill;
        String append = "echo " + line + " >> " + log.getFileName();
        String answer = "Soak answer " + line + ".";
        switch (point) {
            case MODEL_FIRST_CHUNK -> replies(tag, Reply.delayed(Duration.ofSeconds(60), Reply.openAiText("never")),
                    Reply.openAiText(answer));
            case MID_STREAM -> replies(tag, Reply.paced(Duration.ofMillis(20), OpenAi.textFrames(words("soak", 300))),
                    Reply.openAiText(answer));
            case CALL_STORED, AFTER_TOOL_RESULT -> replies(tag, Reply.openAiToolCall("call_" + line.replace('-', '_') + "_" + RUN,
                    "exec", command(append)), point == Point.AFTER_TOOL_RESULT
                    ? Reply.delayed(Duration.ofSeconds(60), Reply.openAiText("never")) : Reply.openAiText(answer),
                    Reply.openAiText(answer));
            case TOOL_RUNNING -> replies(tag, Reply.openAiToolCall("call_" + line.replace('-', '_') + "_" + RUN, "exec",
                    command("sleep 3; " + append)), Reply.openAiText(answer));
        }
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            socket.send(ItSocket.chat("1", session, "soak turn " + tag));
            switch (point) {
                case MODEL_FIRST_CHUNK -> awaitTrue(() -> !requestsOf(tag).isEmpty(), "the model was called");
                case MID_STREAM -> awaitEvent(socket, "agent.chunk", session);
                case CALL_STORED -> {
                    JsonNode card = awaitEvent(socket, "approval.request", session);
                    socket.send(answer("ok", card.at("/payload/approvalId").asText(), true)); // killed as it goes
                }
                case TOOL_RUNNING -> {
                    JsonNode card = awaitEvent(socket, "approval.request", session);
                    socket.send(answer("ok", card.at("/payload/approvalId").asText(), true));
                    Thread.sleep(1000);
                }
                case AFTER_TOOL_RESULT -> {
                    JsonNode card = awaitEvent(socket, "approval.request", session);
                    socket.send(answer("ok", card.at("/payload/approvalId").asText(), true));
                    awaitTrue(() -> requestsOf(tag).size() >= 2, "the model was called with the tool's result");
                }
            }
            server.kill();
        }
        figures.kills++;
        long restarted = System.nanoTime();
        server.start();
        try (ItSocket socket = ItSocket.connect(server.base().toURL())) {
            long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < until) {
                if (texts(session).contains("model: " + answer)) {
                    figures.finished++;
                    break;
                }
                JsonNode rerun = pendingRerun(session);
                if (rerun != null) {
                    // a person decides: here, no (so a second run could only be the server's own doing)
                    figures.waited++;
                    figures.restartToEndMillis.add((System.nanoTime() - restarted) / 1_000_000);
                    socket.send(answer("no", rerun.path("approvalId").asText(), false));
                    awaitTrue(() -> texts(session).contains("model: " + answer), "the denied turn ended");
                    break;
                }
                Thread.sleep(100);
            }
            if (figures.finished + figures.waited < figures.kills) {
                throw new AssertionError(point + ": the cut turn neither finished nor waits for a person: " + texts(session));
            }
            if (figures.restartToEndMillis.size() < figures.finished + figures.waited) {
                figures.restartToEndMillis.add((System.nanoTime() - restarted) / 1_000_000);
            }
        }
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        if (lines.stream().filter(line::equals).count() > 1) {
            figures.duplicates++;
        }
    }

    private JsonNode pendingRerun(String session) throws Exception {
        for (JsonNode approval : get("api/admin/approvals?sessionKey=" + session).path("approvals")) {
            // the card asking to run a cut call again, or the first card when the kill came before its answer arrived
            if ("pending".equals(approval.path("decision").asText())) {
                return approval;
            }
        }
        return null;
    }

    /** SubscribeToTask on {@code taskId}: the stream's data lines, until it ends. */
    private String subscribe(String taskId) {
        try {
            HttpResponse<InputStream> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/a2a"))
                    .header("Content-Type", "application/json").header("Accept", "text/event-stream").header("A2A-Version", "1.0")
                    .timeout(Duration.ofSeconds(90)).POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,"
                            + "\"method\":\"SubscribeToTask\",\"params\":{\"id\":\"" + taskId + "\"}}")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            StringBuilder events = new StringBuilder();
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    events.append(line).append('\n');
                }
            }
            return response.statusCode() + "\n" + events;
        } catch (IOException | InterruptedException e) {
            return "failed: " + e;
        }
    }

    private JsonNode a2a(String method, String params) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/a2a"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return TestJson.MAPPER.readTree(response.body());
    }

    /** The session's texts as stored, in order: "user: …" and "model: …". */
    private List<String> texts(String session) {
        List<String> texts = new ArrayList<>();
        try {
            HttpResponse<String> got = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/apps/lango/users/" + USER
                    + "/sessions/" + session)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (got.statusCode() != 200) {
                return texts;
            }
            texts.addAll(TestJson.conversation(TestJson.MAPPER.readTree(got.body()).path("events")));
        } catch (IOException | InterruptedException e) {
            texts.add("unreadable: " + e);
        }
        return texts;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve(path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return TestJson.MAPPER.readTree(response.body());
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(100);
        }
    }
}
