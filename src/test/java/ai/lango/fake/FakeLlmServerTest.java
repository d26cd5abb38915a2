package ai.lango.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class FakeLlmServerTest {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private HttpResponse<String> post(FakeLlmServer server, String path, String body) throws IOException,
            InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .header("X-Custom-Header", "v").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void repliesAreConsumedInOrderAndRequestsRecorded() throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start()) {
            server.enqueue(Reply.status(404, "{\"error\":\"first\"}")).enqueue(Reply.openAiText("Hi"));

            HttpResponse<String> first = post(server, "/a?x=1", "{\"n\":1}");
            HttpResponse<String> second = post(server, "/b", "not json");

            assertEquals(404, first.statusCode());
            assertEquals(200, second.statusCode());
            assertTrue(second.body().endsWith("data: [DONE]\n\n"), second.body());
            assertEquals(2, server.requests().size());
            FakeLlmServer.Recorded r = server.requests().get(0);
            assertEquals("POST", r.method());
            assertEquals("/a?x=1", r.path());
            assertEquals("v", r.header("x-custom-header"));
            assertTrue(r.headers().containsKey("x-custom-header"), "names are lower-cased: " + r.headers().keySet());
            assertEquals(1, r.json().path("n").asInt());
            assertEquals("not json", server.last().body());
            assertEquals(null, server.last().json());
        }
    }

    @Test
    void emptyQueueAnswersAClear500() throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start()) {
            HttpResponse<String> response = post(server, "/v1/messages", "{}");

            assertEquals(500, response.statusCode());
            assertTrue(response.body().contains("no scripted reply"), response.body());
        }
    }

    @Test
    void toolArgumentsAreSplitIntoSeveralFragments() {
        assertTrue(FakeLlmServer.split("{\"city\":\"Paris\"}").size() >= 2);
        assertEquals("{\"a\":1}", String.join("", FakeLlmServer.split("{\"a\":1}")));
    }
}
