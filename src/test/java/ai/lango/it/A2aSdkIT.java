package ai.lango.it;

import static ai.lango.fake.FakeLlmServer.lastUserMessageContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer.PacedText;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A2A 1.0 as agents speak it today: the A2A JavaScript SDK's client (.ci/a2a, @a2a-js/sdk 1.3.0) at its
 * defaults, no compatibility switch, finds Lango by its card, sends work, watches it stream, answers its
 * approval question on the same task, reads tasks back, lists and cancels them.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
// The protocol as the SDK speaks it, on the embedded database; A2A's tasks on PostgreSQL are read, listed and
// canceled across two servers in ScaleOutIT, and per user in IdentityIT and A2aIT, which run on both.
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class A2aSdkIT extends FakeLlmIT {

    static final Path PEERS = Path.of(".ci/a2a/node_modules").toAbsolutePath();
    private static final Path WORKSPACE = ItWorkspace.dir();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    @BeforeEach
    void skipWithoutTheSdk() {
        assumeTrue(Files.isDirectory(PEERS.resolve("@a2a-js/sdk")), "A2A SDK tests skipped: run .ci/run (it installs .ci/a2a)");
    }

    /** What the SDK's client saw doing {@code step}. */
    static JsonNode sdk(URL base, String step, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", Path.of("src/test/resources/a2a/sdk-client.mjs").toAbsolutePath().toString(),
                base.toString(), step));
        command.addAll(List.of(args));
        Path log = Path.of("target", "a2a-sdk-client-" + step + "-" + System.nanoTime() + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("LANGO_A2A_PEERS", PEERS.toString());
        Process client = builder.start();
        assertTrue(client.waitFor(2, TimeUnit.MINUTES), "the client ended");
        String printed = Files.readString(log);
        assertEquals(0, client.exitValue(), printed);
        return TestJson.MAPPER.readTree(printed.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow(
                () -> new AssertionError(printed)));
    }

    private JsonNode sdk(String step, String... args) throws Exception {
        return sdk(base, step, args);
    }

    @Test
    void theSdksClientAtItsDefaultsFindsLangoAndItsTaskCompletes() throws Exception {
        fake.enqueue(Reply.openAiText("Hello ", "from Lango"));
        JsonNode task = sdk("send", "hello " + RUN);
        assertEquals("JSONRPC", task.at("/transport/protocol").asText(), task.toString());
        assertEquals("task", task.path("kind").asText(), task.toString());
        assertEquals("COMPLETED", task.path("state").asText(), task.toString());
        assertEquals("Hello from Lango", task.at("/artifacts/0/text").asText());
        assertEquals("[\"user: hello " + RUN + "\",\"agent: Hello from Lango\"]", task.path("history").toString());
        assertTrue(fake.last().body().contains("hello " + RUN), "the model got the SDK's message");

        JsonNode read = sdk("get", task.path("id").asText(), "1");
        assertEquals("COMPLETED", read.path("state").asText(), read.toString());
        assertEquals(1, read.path("history").size(), "historyLength 1: the last message only");
        assertEquals("Hello from Lango", read.at("/artifacts/0/text").asText());
        List<String> states = new ArrayList<>();
        read.path("stateHistory").forEach(s -> states.add(s.asText().replaceAll("@.*", "")));
        assertEquals(List.of("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED"), states,
                "every state the task was in, with when it began: " + read.path("stateHistory"));
        assertTrue(read.path("stateHistory").get(0).asText().matches(".*@20\\d\\d-.*Z"), read.path("stateHistory").toString());
    }

    @Test
    void aStreamedAnswerArrivesChunkByChunkAsTheModelWritesIt() throws Exception {
        // Chunks longer than the masking window (31 characters held back while a secret is known): each lets text go.
        String[] written = {"One, and that is the first of them all; ", "two, which comes right after the first; ",
            "three, the one before the last of them; ", "four."};
        PacedText model = PacedText.openAi(Duration.ofMillis(400), written);
        fake.enqueue(model);
        JsonNode events = sdk("stream", "count to four " + RUN).path("events");

        assertEquals("task", events.get(0).path("kind").asText(), events.toString());
        assertEquals("SUBMITTED", events.get(0).path("state").asText());
        List<JsonNode> chunks = new ArrayList<>();
        events.forEach(e -> {
            if (e.path("kind").asText().equals("artifact") && !e.path("lastChunk").asBoolean()) {
                chunks.add(e);
            }
        });
        assertTrue(chunks.size() >= written.length, "artifact updates as the model wrote: " + events);
        assertTrue(chunks.get(0).path("text").asText().startsWith("One, "), events.toString());
        assertTrue(chunks.get(1).path("append").asBoolean(), "later chunks append");
        long spread = chunks.get(chunks.size() - 1).path("at").asLong() - chunks.get(0).path("at").asLong();
        assertTrue(spread >= 900, "the chunks came as the model wrote them, 400 ms apart, not at the end: " + events);
        StringBuilder appended = new StringBuilder();
        chunks.forEach(c -> appended.append(c.path("text").asText()));
        assertEquals(String.join("", written), appended.toString(), "the chunks are the answer");
        JsonNode whole = events.get(events.size() - 2);
        assertEquals(String.join("", written), whole.path("text").asText(), "the whole answer replaces the chunks: " + events);
        assertTrue(whole.path("lastChunk").asBoolean());
        JsonNode last = events.get(events.size() - 1);
        assertEquals("status", last.path("kind").asText());
        assertEquals("COMPLETED", last.path("state").asText());
    }

    @Test
    void aStreamShowsTheTaskWorkingAndEachToolItCalls() throws Exception {
        String ask = "list the workspace " + RUN;
        fake.route(lastUserMessageContains(ask), r -> r.body().contains("\"role\":\"tool\"")
                ? Reply.openAiText("Listed.") : Reply.openAiToolCall("call_listing", "fs_list", "{\"path\":\".\"}"));
        JsonNode events = sdk("stream", ask).path("events");
        List<String> states = new ArrayList<>();
        events.forEach(e -> {
            if (e.path("kind").asText().equals("status")) {
                states.add(e.path("state").asText() + ":" + e.path("text").asText());
            }
        });
        assertTrue(states.contains("WORKING:"), "the task is said to be working: " + states);
        assertTrue(states.contains("WORKING:calling fs_list"), "each tool call is a status message: " + states);
        assertEquals("COMPLETED", events.get(events.size() - 1).path("state").asText(), events.toString());
    }

    @Test
    void aCallThatWaitsForApprovalIsAskedAndAnsweredOnTheSameTask() throws Exception {
        String file = "a2a-approved-" + RUN + ".txt";
        Files.writeString(WORKSPACE.resolve(file), "to be deleted");
        fake.enqueue(Reply.openAiToolCall("call_a2a_delete", "fs_delete", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("Deleted it."));

        JsonNode asked = sdk("send", "delete " + file);
        assertEquals("INPUT_REQUIRED", asked.path("state").asText(), asked.toString());
        assertTrue(asked.path("status").asText().contains("Approval needed: fs_delete"), asked.toString());
        JsonNode data = asked.at("/statusData/0");
        assertEquals("fs_delete", data.path("tool").asText(), asked.toString());
        assertEquals(file, data.at("/arguments/path").asText());
        assertFalse(data.path("approvalId").asText().isEmpty());
        assertTrue(Files.exists(WORKSPACE.resolve(file)), "nothing ran before the answer");

        String id = asked.path("id").asText();
        JsonNode done = sdk("continue", id, "approve");
        assertEquals(id, done.path("id").asText(), "the same task goes on");
        assertEquals("COMPLETED", done.path("state").asText(), done.toString());
        assertEquals("Deleted it.", done.at("/artifacts/0/text").asText());
        assertTrue(Files.notExists(WORKSPACE.resolve(file)), "the approved call ran");

        assertEquals("UnsupportedOperationError", sdk("continue", id, "approve").at("/error/name").asText(),
                "a completed task takes no more messages");
        assertEquals("TaskNotCancelableError", sdk("cancel", id).at("/error/name").asText());
        assertEquals("UnsupportedOperationError", sdk("subscribe", id).at("/error/name").asText());
    }

    @Test
    void aDataPartDenyingTheCallLeavesItUndone() throws Exception {
        String file = "a2a-denied-" + RUN + ".txt";
        Files.writeString(WORKSPACE.resolve(file), "to be kept");
        fake.enqueue(Reply.openAiToolCall("call_a2a_keep", "fs_delete", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("I did not delete it."));
        JsonNode asked = sdk("send", "delete " + file);
        assertEquals("INPUT_REQUIRED", asked.path("state").asText(), asked.toString());
        JsonNode unclear = sdk("continue", asked.path("id").asText(), "perhaps");
        assertTrue(unclear.at("/error/message").asText().contains("approve"), "an answer that is neither says how to answer: " + unclear);

        JsonNode done = sdk("answer", asked.path("id").asText(), "false");
        assertEquals("COMPLETED", done.path("state").asText(), done.toString());
        assertEquals("I did not delete it.", done.at("/artifacts/0/text").asText());
        assertTrue(Files.exists(WORKSPACE.resolve(file)), "the denied call did not run");
        assertTrue(fake.last().body().contains("denied"), "the model was told: " + fake.last().body());
    }

    @Test
    void aRunningTaskIsCanceledWhereItWaits() throws Exception {
        PacedText slow = PacedText.openAi(Duration.ofMillis(500), java.util.Collections.nCopies(30, "word ").toArray(String[]::new));
        fake.enqueue(slow);
        JsonNode result = sdk("cancel-running", "write a long story " + RUN);
        assertTrue(result.at("/first/state").asText().matches("SUBMITTED|WORKING"), result.toString());
        assertEquals("CANCELED", result.at("/canceled/state").asText(), result.toString());
        assertTrue(result.path("tookMs").asLong() < 10_000, "canceled at once, not after the 15 s answer: " + result);
        assertEquals(Boolean.FALSE, slow.finished().get(10, TimeUnit.SECONDS), "the model's stream was closed");
        assertEquals("CANCELED", sdk("get", result.at("/canceled/id").asText(), "0").path("state").asText());
    }

    @Test
    void aSubscriberReattachesToARunningTaskAndSeesItFinish() throws Exception {
        // 10 s of answer: the subscribing client (a new node process) must attach while the task still runs,
        // also on a slow machine; the reply answers these words only, so no turn left running can take it.
        String ask = "take your time " + RUN;
        fake.route(lastUserMessageContains(ask), request -> PacedText.openAi(Duration.ofMillis(1000),
                "Still ", "working ", "on ", "it, ", "nearly ", "there ", "and ", "now ", "it's ", "done."));
        JsonNode started = sdk("start", ask);
        assertTrue(started.path("state").asText().matches("SUBMITTED|WORKING"), started.toString());
        JsonNode subscribed = sdk("subscribe", started.path("id").asText());
        JsonNode events = subscribed.path("events");
        assertTrue(events.size() > 0, "the subscriber saw events: " + subscribed);
        assertEquals("task", events.get(0).path("kind").asText(), "the task as it stands comes first: " + events);
        JsonNode last = events.get(events.size() - 1);
        assertEquals("COMPLETED", last.path("state").asText(), events.toString());
        assertTrue(events.toString().contains("Still working on it, nearly there and now it's done."), events.toString());
    }

    @Test
    void theFilesTheAgentWroteAreArtifactsWhenTheClientAcceptsThem() throws Exception {
        String file = "a2a-notes-" + RUN + ".md";
        fake.enqueue(Reply.openAiToolCall("call_a2a_write", "fs_write", "{\"path\":\"" + file + "\",\"content\":\"# Notes\"}"))
                .enqueue(Reply.openAiText("Wrote the notes."));
        JsonNode task = sdk("send-files", "write notes " + RUN);
        assertEquals("COMPLETED", task.path("state").asText(), task.toString());
        assertEquals("Wrote the notes.", task.at("/artifacts/0/text").asText());
        assertEquals("file:" + file, task.at("/artifacts/1/id").asText(), task.toString());
        assertEquals("[" + file + " text/markdown: # Notes]", task.at("/artifacts/1/text").asText());
    }

    @Test
    void listTasksPagesTheCallersTasksOfAContext() throws Exception {
        String context = "list-" + RUN;
        for (int i = 0; i < 3; i++) {
            fake.enqueue(Reply.openAiText("Answer " + i));
            assertEquals(200, post("api/a2a", "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"SendMessage\","
                    + "\"params\":{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m" + i + "\",\"contextId\":\"" + context
                    + "\",\"parts\":[{\"text\":\"question " + i + "\"}]}}}").statusCode());
        }
        JsonNode pages = sdk("list", context).path("pages");
        assertEquals(2, pages.size(), pages.toString());
        assertEquals(2, pages.at("/0/ids").size());
        assertEquals(1, pages.at("/1/ids").size());
        assertEquals(3, pages.at("/0/totalSize").asInt());
        assertEquals("[\"COMPLETED\",\"COMPLETED\"]", pages.at("/0/states").toString());
    }

    private java.net.http.HttpResponse<String> post(String path, String body) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theArgumentsOfAWaitingCallAreShownMasked() throws Exception {
        String name = "A2A_KEY_" + RUN.replace('-', '_');
        String value = "k" + UUID.randomUUID().toString().replace("-", "");
        java.net.http.HttpResponse<String> stored = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(base + "api/admin/secrets/" + name)).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"value\":\"" + value + "\"}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(201, stored.statusCode(), stored.body());
        String ask = "delete the key file " + RUN;
        fake.route(lastUserMessageContains(ask), r -> r.body().contains("\"role\":\"tool\"")
                ? Reply.openAiText("Left it.") : Reply.openAiToolCall("call_masked", "fs_delete", "{\"path\":\"" + value + ".txt\"}"));
        JsonNode asked = sdk("send", ask);
        assertEquals("INPUT_REQUIRED", asked.path("state").asText(), asked.toString());
        assertFalse(asked.toString().contains(value), "the value is in no part of the question: " + asked);
        assertEquals("[SECRET:" + name + "].txt", asked.at("/statusData/0/arguments/path").asText(), asked.toString());
        assertTrue(asked.path("status").asText().contains("[SECRET:" + name + "]"), asked.toString());
        assertEquals("COMPLETED", sdk("continue", asked.path("id").asText(), "deny").path("state").asText());
    }

    @Test
    void anUnknownTaskIsNotFound() throws Exception {
        assertEquals("TaskNotFoundError", sdk("get", "no-such-task-" + RUN, "0").at("/error/name").asText());
        assertEquals("TaskNotFoundError", sdk("continue", "no-such-task-" + RUN, "approve").at("/error/name").asText());
    }
}
