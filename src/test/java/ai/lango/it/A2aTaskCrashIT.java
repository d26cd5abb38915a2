package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * An A2A task that waits for its caller survives a kill -9: the A2A SDK's client starts a task whose call
 * waits for approval (input-required), the server is killed (SIGKILL) and started again, and the same task
 * is read back still waiting, answered by its id, and completes — the call running once, after the restart.
 * A task that was working when its server died reads as failed, saying so.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@Execution(ExecutionMode.CONCURRENT) // its server is its own: it runs beside the Arquillian tests
class A2aTaskCrashIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aTaskWaitingForItsCallerIsAnsweredAfterAKill() throws Exception {
        assumeTrue(Files.isDirectory(A2aSdkIT.PEERS.resolve("@a2a-js/sdk")), "A2A SDK tests skipped: run .ci/run (it installs .ci/a2a)");
        int port = ItPorts.HTTP + 70;
        int fakePort = ItPorts.FAKE_LLM + 50;
        String run = UUID.randomUUID().toString().substring(0, 8);
        Path data = Path.of("target", "it-data-a2a-crash-" + run).toAbsolutePath();
        Path workspace = Path.of("target", "it-workspace-a2a-crash-" + run).toAbsolutePath();
        Files.createDirectories(workspace);
        Path file = workspace.resolve("report-" + run + ".txt");
        Files.writeString(file, "to be deleted after the restart");
        try (FakeLlmServer fake = FakeLlmServer.start(fakePort)) {
            fake.route(r -> r.body().contains("\"role\":\"tool\""), r -> Reply.openAiText("Deleted after the restart."));
            // the working task's model: cut by the kill the first time, answering when the resumed turn asks again
            java.util.concurrent.atomic.AtomicInteger modelCalls = new java.util.concurrent.atomic.AtomicInteger();
            fake.route(r -> r.body().contains("cut by the kill " + run), r -> modelCalls.getAndIncrement() == 0
                    ? Reply.delayed(Duration.ofMinutes(5), Reply.openAiText("late")) : Reply.openAiText("Finished after the restart."));
            fake.route(r -> true, r -> Reply.openAiToolCall("call_" + run, "fs_delete", "{\"path\":\"" + file.getFileName() + "\"}"));
            Map<String, String> environment = ItDatabase.HSQLDB.environment(data, port);
            environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
            environment.put("LANGO_A2A_ENABLED", "true");
            environment.put("LANGO_TOOLS_WORKSPACE", workspace.toString());
            // The request must outlive a kill and a restart on a busy machine (CI's runs 35-90 s of it).
            environment.put("LANGO_SECURITY_APPROVAL_TIMEOUT", "PT10M");
            try (LibertyServer server = LibertyServer.copyOf(ItDatabase.HSQLDB.server("a2a-crash"), port, environment)) {
                server.start();
                URL base = server.base().toURL();
                JsonNode asked = A2aSdkIT.sdk(base, "send", "delete the report " + run);
                assertEquals("INPUT_REQUIRED", asked.path("state").asText(), asked.toString());
                String id = asked.path("id").asText();
                // A second task is left working (its model has not answered) when the server dies.
                HttpResponse<String> working = post(base, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":"
                        + "{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m1\",\"parts\":[{\"text\":\"cut by the kill " + run + "\"}]},"
                        + "\"configuration\":{\"returnImmediately\":true}}}");
                String workingId = TestJson.MAPPER.readTree(working.body()).at("/result/task/id").asText();
                Thread.sleep(500);

                server.kill();
                server.start();

                JsonNode waiting = A2aSdkIT.sdk(base, "get", id, "10");
                assertEquals("INPUT_REQUIRED", waiting.path("state").asText(), "still waiting after the kill: " + waiting);
                assertTrue(Files.exists(file), "nothing ran");
                JsonNode done = A2aSdkIT.sdk(base, "continue", id, "approve");
                assertEquals(id, done.path("id").asText());
                assertEquals("COMPLETED", done.path("state").asText(), done.toString());
                assertEquals("Deleted after the restart.", done.at("/artifacts/0/text").asText());
                assertTrue(Files.notExists(file), "the approved call ran after the restart");

                // The working task goes on: its turn is resumed after the restart and the task ends as the turn does.
                long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                JsonNode resumed;
                do {
                    Thread.sleep(1_000);
                    resumed = A2aSdkIT.sdk(base, "get", workingId, "0");
                } while (!"COMPLETED".equals(resumed.path("state").asText()) && System.nanoTime() < until);
                assertEquals("COMPLETED", resumed.path("state").asText(), "the task of the cut turn finished: " + resumed);
                assertEquals("Finished after the restart.", resumed.at("/artifacts/0/text").asText(), resumed.toString());
                assertEquals(2, modelCalls.get(), "its model was asked again once");
            }
        }
    }

    private HttpResponse<String> post(URL base, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(base.toURI().resolve("api/a2a")).header("Content-Type", "application/json")
                .header("A2A-Version", "1.0").timeout(Duration.ofMinutes(1)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
