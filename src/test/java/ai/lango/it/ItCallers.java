package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * Callers of a server with authentication, for integration tests: HTTP calls with a credential,
 * users issued by the operator, authenticated sockets, and the /ws approval frames.
 */
final class ItCallers {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final URL base;
    private final String operator;

    ItCallers(URL base, String operatorToken) {
        this.base = base;
        this.operator = operatorToken;
    }

    HttpResponse<String> call(String method, String path, String credential, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (credential != null) {
            request.header("Authorization", "Bearer " + credential);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The operator issues {@code userId} a token (an administrator's when {@code admin}); returns it. */
    String issue(String userId, boolean admin) throws Exception {
        HttpResponse<String> issued = call("POST", "api/admin/users", operator, "{\"userId\":\"" + userId + "\",\"admin\":" + admin
                + "}");
        assertEquals(201, issued.statusCode(), issued.body());
        return TestJson.MAPPER.readTree(issued.body()).path("token").asText();
    }

    /** A socket authenticated with {@code token}. */
    ItSocket socket(String token) throws Exception {
        ItSocket socket = ItSocket.connect(base);
        socket.send("{\"type\":\"auth\",\"token\":\"" + token + "\"}");
        assertEquals("auth.ok", socket.next().path("event").asText());
        return socket;
    }

    /** Frames until the named event (a response to {@code chatId} before it fails); returns its payload. */
    static JsonNode until(ItSocket socket, String event, String chatId, List<JsonNode> seen) throws InterruptedException {
        while (true) {
            JsonNode frame = socket.next();
            seen.add(frame);
            if ("event".equals(frame.path("type").asText()) && event.equals(frame.path("event").asText())) {
                return frame.path("payload");
            }
            assertFalse("response".equals(frame.path("type").asText()) && chatId.equals(frame.path("id").asText()),
                    "the chat.message got its response before " + event + ": " + seen);
        }
    }

    static String answer(String id, String approvalId, boolean approved) {
        return "{\"type\":\"request\",\"id\":\"" + id + "\",\"method\":\"approval.response\",\"params\":{\"approvalId\":\""
                + approvalId + "\",\"approved\":" + approved + "}}";
    }

    /** An ADK run that answers the request for approval {@code confirmationId}. */
    static String confirm(String user, String session, String confirmationId, boolean confirmed) {
        return "{\"appName\":\"lango\",\"userId\":\"" + user + "\",\"sessionId\":\"" + session + "\",\"newMessage\":{\"role\":\"user\","
                + "\"parts\":[{\"functionResponse\":{\"id\":\"" + confirmationId + "\",\"name\":\"adk_request_confirmation\","
                + "\"response\":{\"confirmed\":" + confirmed + "}}}]}}";
    }

    /** The id of ADK's confirmation call in a run's events, or null. */
    static String confirmationId(String runEvents) throws Exception {
        for (JsonNode event : TestJson.MAPPER.readTree(runEvents)) {
            for (JsonNode part : event.path("content").path("parts")) {
                if ("adk_request_confirmation".equals(part.path("functionCall").path("name").asText())) {
                    return part.path("functionCall").path("id").asText();
                }
            }
        }
        return null;
    }
}
