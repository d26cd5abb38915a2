package ai.lango.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/** The one JSON mapper of the tests. */
public final class TestJson {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private TestJson() {
    }

    /** The body of a POST /api/run: one user message in the user's session of the app "lango". */
    public static String runRequest(String user, String session, String text) {
        return MAPPER.createObjectNode().put("appName", "lango").put("userId", user).put("sessionId", session)
                .set("newMessage", MAPPER.createObjectNode().put("role", "user")
                        .set("parts", MAPPER.createArrayNode().add(MAPPER.createObjectNode().put("text", text)))).toString();
    }

    /** A stored session's texts (ADK's events, as its API answers them), in order: "user: …" and "model: …". */
    public static List<String> conversation(Iterable<JsonNode> events) {
        List<String> texts = new ArrayList<>();
        for (JsonNode event : events) {
            for (JsonNode part : event.path("content").path("parts")) {
                if (part.has("text")) {
                    texts.add(("user".equals(event.path("author").asText()) ? "user: " : "model: ") + part.path("text").asText());
                }
            }
        }
        return texts;
    }
}
