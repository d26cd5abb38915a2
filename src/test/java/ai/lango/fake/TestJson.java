package ai.lango.fake;

import com.fasterxml.jackson.databind.ObjectMapper;

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
}
