package ai.lango.api;

import ai.lango.adk.AgentService;
import ai.lango.config.LangoSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.JsonBaseModel;
import com.google.adk.events.Event;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.logging.Logger;

/**
 * WebSocket chat (CONTRACT.md): a {@code chat.message} request, events while the turn runs, then
 * exactly one response. A malformed frame gets an error response and the connection stays open.
 * Turns run on the agent's turn threads, so a slow model never holds a container thread.
 */
@Dependent // a bean-defining annotation, or the container leaves @Inject fields null
@ServerEndpoint("/ws")
public class ChatSocket {

    /** Frames larger than this are refused with an error response. */
    static final int MAX_FRAME_CHARS = 1024 * 1024;
    static final String DEFAULT_SESSION = "default";

    private static final Logger LOG = Logger.getLogger(ChatSocket.class.getName());
    private static final ObjectMapper JSON = JsonBaseModel.getMapper();

    @Inject
    AgentService agent;

    @Inject
    LangoSettings settings;

    /** One endpoint instance per connection: whether this one has shown the token. */
    private boolean authenticated;

    @OnOpen
    public void open(Session session) {
        authenticated = !new AccessGuard(settings.access()).tokenRequired();
        // Room for one byte over the limit, so an oversized frame reaches us and gets a clear answer.
        session.setMaxTextMessageBufferSize(MAX_FRAME_CHARS * 4 + 1);
        session.setMaxIdleTimeout(0);
    }

    @OnMessage
    public void text(Session session, String frame) {
        if (frame.length() > MAX_FRAME_CHARS && authenticated) {
            send(session, error(null, "frame_too_large", "frames are limited to " + MAX_FRAME_CHARS + " characters"));
            return;
        }
        JsonNode request;
        try {
            request = JSON.readTree(frame);
        } catch (IOException e) {
            if (!authenticated) {
                authenticate(session, JSON.createObjectNode());
                return;
            }
            send(session, error(null, "invalid_json", "the frame is not valid JSON"));
            return;
        }
        if (!authenticated) {
            authenticate(session, request);
            return;
        }
        JsonNode id = request.get("id");
        if (!request.isObject() || !"request".equals(request.path("type").asText())) {
            send(session, error(id, "invalid_request", "expected {\"type\":\"request\",\"id\":…,\"method\":…,\"params\":{…}}"));
            return;
        }
        if (!"chat.message".equals(request.path("method").asText())) {
            send(session, error(id, "unknown_method", "unknown method \"" + request.path("method").asText() + "\"; supported: chat.message"));
            return;
        }
        String sessionKey = request.path("params").path("sessionKey").asText(DEFAULT_SESSION);
        String message = request.path("params").path("message").asText("");
        if (sessionKey.isBlank() || message.isBlank()) {
            send(session, error(id, "invalid_params", "params.message is required (params.sessionKey defaults to \"default\")"));
            return;
        }
        turn(session, id, sessionKey, message);
    }

    /** With lango.auth.token set, the first frame must be {"type":"auth","token":…}; anything else closes. */
    private void authenticate(Session session, JsonNode frame) {
        if ("auth".equals(frame.path("type").asText())
                && new AccessGuard(settings.access()).tokenMatches(frame.path("token").asText(null))) {
            authenticated = true;
            send(session, event("auth.ok", JSON.createObjectNode()));
            return;
        }
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "authenticate first with {\"type\":\"auth\",\"token\":…}"));
        } catch (IOException e) {
            LOG.fine(() -> "close failed: " + e.getMessage());
        }
    }

    @OnMessage
    public void binary(Session session, ByteBuffer frame) {
        if (!authenticated) {
            authenticate(session, JSON.createObjectNode());
            return;
        }
        send(session, error(null, "binary_not_supported", "send text frames with one JSON object each"));
    }

    /** Starts the turn on the agent's turn threads; the frames go out as it runs, the response when it ends. */
    private void turn(Session session, JsonNode id, String sessionKey, String message) {
        send(session, event("agent.thinking", payload(sessionKey)));
        agent.chatAsync(AgentService.DEFAULT_USER, sessionKey, message, true, e -> forward(session, sessionKey, e))
                .whenComplete((answer, failure) -> {
                    send(session, event("agent.done", payload(sessionKey)));
                    if (failure == null) {
                        ObjectNode response = JSON.createObjectNode().put("type", "response");
                        response.set("id", id);
                        response.putObject("result").put("response", answer);
                        send(session, response);
                    } else {
                        send(session, error(id, "turn_failed", failure.getMessage()));
                    }
                });
    }

    /** One stored or streamed event as the client sees it: chunks, tool calls, tool results, delegations. */
    private void forward(Session session, String sessionKey, Event event) {
        List<Part> parts = event.content().flatMap(Content::parts).orElse(List.of());
        if (event.partial().orElse(false)) {
            StringBuilder text = new StringBuilder();
            parts.forEach(p -> p.text().ifPresent(text::append));
            if (text.length() > 0) {
                send(session, event("agent.chunk", payload(sessionKey).put("chunk", text.toString())));
            }
            return;
        }
        for (Part part : parts) {
            part.functionCall().ifPresent(call -> send(session, event("agent.tool_call", toolCall(sessionKey, event, call))));
            part.functionResponse().ifPresent(result -> send(session, event("agent.tool_result", toolResult(sessionKey, event, result))));
        }
        event.actions().transferToAgent().ifPresent(to -> send(session, event("agent.delegation",
                payload(sessionKey).put("from", event.author()).put("to", to))));
    }

    private static ObjectNode toolCall(String sessionKey, Event event, FunctionCall call) {
        ObjectNode payload = payload(sessionKey).put("agent", event.author()).put("id", call.id().orElse(""))
                .put("name", call.name().orElse(""));
        payload.set("args", JSON.valueToTree(call.args().orElse(java.util.Map.of())));
        return payload;
    }

    private static ObjectNode toolResult(String sessionKey, Event event, FunctionResponse response) {
        ObjectNode payload = payload(sessionKey).put("agent", event.author()).put("id", response.id().orElse(""))
                .put("name", response.name().orElse(""));
        payload.set("result", JSON.valueToTree(response.response().orElse(java.util.Map.of())));
        return payload;
    }

    private static ObjectNode payload(String sessionKey) {
        return JSON.createObjectNode().put("sessionKey", sessionKey);
    }

    private static ObjectNode event(String name, ObjectNode payload) {
        ObjectNode event = JSON.createObjectNode().put("type", "event").put("event", name);
        event.set("payload", payload);
        return event;
    }

    private static ObjectNode error(JsonNode id, String code, String message) {
        ObjectNode response = JSON.createObjectNode().put("type", "response");
        response.set("id", id);
        response.putObject("error").put("code", code).put("message", message);
        return response;
    }

    /** Frames of one connection go out one at a time and in order. */
    private static void send(Session session, JsonNode frame) {
        if (!session.isOpen()) {
            return; // the client left; the turn still completes and is stored
        }
        synchronized (session) {
            try {
                session.getBasicRemote().sendText(frame.toString());
            } catch (IOException e) {
                LOG.fine(() -> "client gone: " + e.getMessage());
                try {
                    session.close(new CloseReason(CloseReason.CloseCodes.CLOSED_ABNORMALLY, "send failed"));
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }
}
