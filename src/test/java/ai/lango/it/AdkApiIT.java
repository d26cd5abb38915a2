package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The ADK-compatible API over real HTTP: sessions, /run and /run_sse, and the JSON errors. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class AdkApiIT extends FakeLlmIT {

    private static final ObjectMapper JSON = TestJson.MAPPER;
    private final HttpClient http = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "api/" + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String runBody(String session, String text, boolean streaming) {
        return "{\"appName\":\"lango\",\"userId\":\"api-user\",\"sessionId\":\"" + session + "\",\"streaming\":" + streaming
                + ",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"" + text + "\"}]}}";
    }

    @Test
    void sessionsAreCreatedListedReadAndDeletedAndReadingNeverCreates() throws Exception {
        String id = "api-" + UUID.randomUUID();
        assertEquals(404, call("GET", "apps/lango/users/api-user/sessions/" + id, null).statusCode());
        assertEquals(404, call("GET", "apps/lango/users/api-user/sessions/" + id, null).statusCode(), "a GET never creates");

        HttpResponse<String> created = call("POST", "apps/lango/users/api-user/sessions/" + id, "{\"state\":{\"topic\":\"x\"}}");
        assertEquals(200, created.statusCode());
        JsonNode session = JSON.readTree(created.body());
        assertEquals(id, session.get("id").asText());
        assertEquals("x", session.get("state").get("topic").asText());
        assertTrue(session.get("events").isArray());
        assertEquals(400, call("POST", "apps/lango/users/api-user/sessions/" + id, null).statusCode());

        JsonNode listed = JSON.readTree(call("GET", "apps/lango/users/api-user/sessions", null).body());
        assertTrue(listed.findValuesAsText("id").contains(id));

        assertEquals(204, call("DELETE", "apps/lango/users/api-user/sessions/" + id, null).statusCode());
        assertEquals(404, call("GET", "apps/lango/users/api-user/sessions/" + id, null).statusCode());
        assertEquals(404, call("GET", "apps/nope/users/api-user/sessions", null).statusCode());
    }

    @Test
    void runAnswersWithTheRunsEventsAndTheSessionHoldsThem() throws Exception {
        String id = "run-" + UUID.randomUUID();
        fake.enqueue(Reply.openAiToolCall("call_api", "fs_list", "{\"path\":\".\"}")).enqueue(Reply.openAiText("Listed."));

        HttpResponse<String> response = call("POST", "run", runBody(id, "list files", false));

        assertEquals(200, response.statusCode(), response.body());
        JsonNode events = JSON.readTree(response.body());
        assertEquals(3, events.size());
        assertEquals("call_api", events.get(0).at("/content/parts/0/functionCall/id").asText());
        assertEquals("call_api", events.get(1).at("/content/parts/0/functionResponse/id").asText());
        assertEquals("Listed.", events.get(2).at("/content/parts/0/text").asText());
        JsonNode session = JSON.readTree(call("GET", "apps/lango/users/api-user/sessions/" + id, null).body());
        assertEquals(4, session.get("events").size(), "the user message and the three events");
    }

    @Test
    void runSseStreamsPartialChunksThenTheFinalEvent() throws Exception {
        fake.enqueue(Reply.openAiText("Hel", "lo"));
        HttpResponse<String> response = call("POST", "run_sse", runBody("sse-" + UUID.randomUUID(), "hi", true));

        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        List<JsonNode> frames = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data:")) {
                frames.add(JSON.readTree(line.substring(5)));
            }
        }
        // Partial chunks (as many as the masking window lets go: a short answer may come as one), then the final event.
        JsonNode last = frames.get(frames.size() - 1);
        assertFalse(last.path("partial").asBoolean(false), frames.toString());
        List<JsonNode> partials = frames.subList(0, frames.size() - 1);
        assertFalse(partials.isEmpty(), "the answer streamed before its final event: " + frames);
        assertTrue(partials.stream().allMatch(f -> f.path("partial").asBoolean(false)), frames.toString());
        StringBuilder streamed = new StringBuilder();
        partials.forEach(f -> streamed.append(f.at("/content/parts/0/text").asText()));
        assertEquals("Hello", streamed.toString());
        assertEquals("Hello", last.at("/content/parts/0/text").asText());
    }

    @Test
    void runSseEndsWithAnErrorFrameWhenTheRunFails() throws Exception {
        fake.enqueue(Reply.status(401, "{\"error\":{\"message\":\"nope\"}}"));
        HttpResponse<String> response = call("POST", "run_sse", runBody("sse-" + UUID.randomUUID(), "hi", true));
        String last = response.body().trim().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("data:{\"error\":"), response.body());
        assertTrue(last.contains("lango.providers.openai.api-key"));
    }

    @Test
    void theDevUisGraphPanelGetsTheAgentTreeAsDot() throws Exception {
        JsonNode graphs = JSON.readTree(call("GET", "dev/build_graph_image/lango", null).body());
        assertTrue(graphs.path("dotSrc").asText().startsWith("digraph \"AgentGraph\""), graphs.toString());
        assertTrue(graphs.path("lango-agent").path("dotSrc").asText().contains("\"lango-agent\""), graphs.toString());
        assertEquals(graphs.path("dotSrc"), graphs.path("root_agent").path("dotSrc"), "the graph a selected event's panel falls back to");
    }

    @Test
    void badRequestsGetJsonErrors() throws Exception {
        HttpResponse<String> broken = call("POST", "run", "{\"appName\":");
        assertEquals(400, broken.statusCode());
        assertEquals("invalid_json", JSON.readTree(broken.body()).at("/error/code").asText());
        assertTrue(JSON.readTree(broken.body()).at("/error/message").asText().contains("line 1"));
        assertEquals(400, call("POST", "run", "{\"appName\":\"lango\"}").statusCode());
        assertEquals(404, call("POST", "run", runBody("x", "hi", false).replace("\"lango\"", "\"other\"")).statusCode());
        assertEquals("[\"lango\"]", call("GET", "list-apps", null).body());
        HttpResponse<String> unknown = call("GET", "no/such/endpoint", null);
        assertEquals(404, unknown.statusCode());
        assertEquals("not_found", JSON.readTree(unknown.body()).at("/error/code").asText());
    }

    @Test
    void adminShowsStoredSessionsWithToolCallsAgentsAndConfigWithoutSecrets() throws Exception {
        String id = "admin-" + UUID.randomUUID();
        fake.enqueue(Reply.openAiToolCall("call_adm", "fs_list", "{\"path\":\".\"}")).enqueue(Reply.openAiText("ok"));
        assertEquals(200, call("POST", "run", runBody(id, "list", false)).statusCode());

        JsonNode stored = JSON.readTree(call("GET", "admin/sessions/" + id, null).body());
        assertEquals(id, stored.get("key").asText());
        List<String> roles = new ArrayList<>();
        stored.get("messages").forEach(m -> roles.add(m.get("role").asText()));
        assertEquals(List.of("user", "assistant", "tool", "assistant"), roles);
        assertEquals("call_adm", stored.at("/messages/1/toolCalls/0/id").asText());
        assertEquals("{\"path\":\".\"}", stored.at("/messages/1/toolCalls/0/input").asText());
        assertEquals("call_adm", stored.at("/messages/2/toolCalls/0/id").asText());

        JsonNode page = JSON.readTree(call("GET", "admin/sessions?page=0&size=200", null).body());
        assertTrue(page.get("total").asLong() >= 1);
        assertEquals(400, call("GET", "admin/sessions?size=0", null).statusCode());

        JsonNode agents = JSON.readTree(call("GET", "admin/agents", null).body());
        assertEquals("lango-agent", agents.at("/root/name").asText());
        assertTrue(agents.at("/root/tools").toString().contains("fs_write"));

        String config = call("GET", "admin/config", null).body();
        assertTrue(config.contains("\"lango.provider\":\"openai\""), config);
        assertTrue(!config.contains("sk-it-secret-key"), "the API key is never returned");

        assertEquals(204, call("DELETE", "admin/sessions/" + id, null).statusCode());
        assertEquals(404, call("GET", "admin/sessions/" + id, null).statusCode());
    }

    @Test
    void openApiDocumentsTheEndpoints() throws Exception {
        HttpResponse<String> openapi = http.send(HttpRequest.newBuilder(URI.create(
                base.getProtocol() + "://" + base.getHost() + ":" + base.getPort() + "/openapi")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, openapi.statusCode());
        assertTrue(openapi.body().contains("/api/run_sse"), openapi.body().substring(0, Math.min(400, openapi.body().length())));
        assertTrue(openapi.body().contains("/api/admin/sessions"));
        for (String servedOutsideJaxRs : List.of("/ws", "/metrics", "/.well-known/agent.json", "bearer")) {
            assertTrue(openapi.body().contains(servedOutsideJaxRs), servedOutsideJaxRs);
        }
    }

    @Test
    void metricsShowTurnLatencyFirstChunkTokensToolCallsAndErrorsPerProvider() throws Exception {
        fake.enqueue(Reply.openAiToolCall("call_m", "fs_list", "{\"path\":\".\"}")).enqueue(Reply.openAiText("Counted."));
        assertEquals(200, call("POST", "run", runBody("metrics-" + UUID.randomUUID(), "count", false)).statusCode());
        fake.enqueue(Reply.status(401, "{}"));
        assertEquals(502, call("POST", "run", runBody("metrics-" + UUID.randomUUID(), "fail", false)).statusCode(),
                "the provider refused the key: its failure, not Lango's");

        HttpResponse<String> scraped = http.send(HttpRequest.newBuilder(URI.create(base + "metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scraped.statusCode());
        assertTrue(scraped.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        String metrics = scraped.body();
        for (String name : List.of("lango_turn_duration_seconds_count", "lango_turn_first_chunk_seconds_count",
                "lango_tool_calls_total", "lango_tokens_total", "lango_errors_total", "lango_turn_duration_seconds_bucket")) {
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith(name) && l.contains("provider=\"openai\"")),
                    name + " missing in:\n" + metrics);
        }
        assertTrue(metrics.contains("jvm_memory_used_bytes"), "the JVM's meters are served beside Lango's");
    }
}
