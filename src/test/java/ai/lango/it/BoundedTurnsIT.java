package ai.lango.it;

import static ai.lango.fake.FakeLlmServer.lastUserMessageContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.OpenAi;
import ai.lango.fake.FakeLlmServer.PacedText;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Turns that end when they must and leave a record of what they did: a request timeout of 4 s ends
 * a turn at 4 s whatever the model or a tool is doing, the session is free at once, and the session
 * keeps the question, every tool call with how it ended, and the error; a model that falls silent
 * fails at the read timeout (2 s). (Tool calls of 12 and 20 MiB are recorded, bounded: ChatIT, without
 * the short timeout.) Each reply answers its own question's words: a turn an earlier test left running
 * (a model call retried after its read timeout) must not take the next test's reply.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class BoundedTurnsIT extends FakeLlmIT {

    // 8 s: on a loaded 2-core machine (CI runs both databases' tests at once) 4 s did not always reach the tool call.
    static final Duration TIMEOUT = Duration.ofSeconds(8);

    private final HttpClient http = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-bounded.war"), "lango.agent.request-timeout=" + TIMEOUT + "\n"
                + "lango.provider.read-timeout=PT2S\nlango.tools.exec.enabled=true\nlango.security.approval.policy=none\nlango.agent.error-correction=false\n");
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> run(String session, String text) throws Exception {
        String body = TestJson.runRequest("bounded", session, text);
        return http.send(HttpRequest.newBuilder(URI.create(base + "api/run")).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode stored(String session) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "api/admin/sessions?key=" + session
                + "&userId=bounded")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return TestJson.MAPPER.readTree(response.body());
    }

    @Test
    void aPacedModelsTurnEndsAtItsTimeoutAndItsSessionIsFreeAtOnce() throws Exception {
        String session = "bounded-paced-" + UUID.randomUUID();
        String[] words = new String[2000];
        java.util.Arrays.fill(words, "word ");
        PacedText paced = PacedText.openAi(Duration.ofMillis(100), words); // 200 s of answer
        fake.route(lastUserMessageContains("tell me everything"), request -> paced);
        long start = System.nanoTime();
        HttpResponse<String> timedOut = run(session, "tell me everything");
        long took = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertEquals(504, timedOut.statusCode(), timedOut.body());
        assertTrue(timedOut.body().contains("turn_timeout"), timedOut.body());
        assertTrue(took >= TIMEOUT.toMillis() && took < TIMEOUT.toMillis() + 3000, "ended at the timeout, not twice it: " + took + " ms");
        assertFalse(paced.finished().get(5, TimeUnit.SECONDS), "the model's stream was closed, not read to its end");

        fake.route(lastUserMessageContains("shorter please"), request -> Reply.openAiText("Here."));
        long again = System.nanoTime();
        HttpResponse<String> next = run(session, "shorter please");
        assertEquals(200, next.statusCode(), next.body());
        assertTrue(Duration.ofNanos(System.nanoTime() - again).toMillis() < 5000, "the session was free at once");

        JsonNode messages = stored(session).path("messages");
        assertEquals("tell me everything", messages.path(0).path("content").asText(), "the question stayed");
        assertTrue(messages.toString().contains("the turn did not finish within the request timeout (" + TIMEOUT + ")"),
                "how the turn ended is stored: " + messages);
    }

    @Test
    void aModelThatFallsSilentFailsAtTheReadTimeout() throws Exception {
        String session = "bounded-silent-" + UUID.randomUUID();
        fake.route(lastUserMessageContains("hello?"), request -> Reply.stalled(Duration.ofSeconds(30), OpenAi.roleFrame()));
        long start = System.nanoTime();
        HttpResponse<String> silent = run(session, "hello?");
        long took = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertEquals(504, silent.statusCode(), silent.body());
        assertTrue(silent.body().contains("provider_timeout") && silent.body().contains("sent nothing for 2000 ms"), silent.body());
        assertTrue(took < TIMEOUT.toMillis(), "the read timeout came first: " + took + " ms");
    }

    @Test
    void aToolRunningAtTheTimeoutIsStoppedAndItsCallStaysRecorded() throws Exception {
        String session = "bounded-tool-" + UUID.randomUUID();
        String marker = "ticks-" + session + ".txt";
        // Appends a line every half second for 20 s: the file shows the command ran, and that it stopped.
        String command = "for i in $(seq 1 40); do echo $i >> " + marker + "; sleep 0.5; done";
        fake.route(lastUserMessageContains("run the slow job"), request -> Reply.openAiToolCall("call_slow", "exec",
                TestJson.MAPPER.createObjectNode().put("command", command).toString()));
        HttpResponse<String> response = run(session, "run the slow job");
        assertEquals(504, response.statusCode(), response.body());

        JsonNode messages = stored(session).path("messages");
        String all = messages.toString();
        assertTrue(all.contains("call_slow") && all.contains("seq 1 40"), "the call is recorded: " + all);
        assertTrue(all.contains("interrupted"), "with how it ended: " + all);
        Path ticks = ItWorkspace.dir().resolve(marker);
        assertTrue(Files.exists(ticks), "the command was running at the timeout");
        Thread.sleep(1_500); // an append under way at the kill lands
        long atTheEnd = Files.size(ticks);
        Thread.sleep(2_000);
        assertEquals(atTheEnd, Files.size(ticks), "the command's process group was killed at the timeout: nothing was appended after it");
    }

    @Test
    void aPageNumberThatWouldOverflowIsABadRequest() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base
                + "api/admin/sessions?page=2147483647&size=200")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(response.body().contains("invalid_page"), response.body());
    }
}
