package ai.lango.api.chat;

import ai.lango.api.ApiJson;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.websocket.Session;

/**
 * The frames of /ws (docs/contract.md): events with their payload, responses and errors to a
 * request, and how a frame goes out. What the socket, the desk and a turn's stream all write.
 */
final class ChatFrames {

    private ChatFrames() {
    }

    /**
     * {@code approval.request}: what a person is asked to approve, and until when; {@code notes}, what they
     * must see besides the call (the secrets it carries and where, the files changed since the last approved
     * command).
     */
    static ObjectNode approvalRequest(String sessionKey, String approvalId, String agentName, String tool, JsonNode args,
                                      String safety, String expiresAt, JsonNode notes) {
        ObjectNode payload = payload(sessionKey).put("approvalId", approvalId).put("agent", agentName).put("tool", tool);
        payload.set("args", args);
        payload.put("safety", safety).put("expiresAt", expiresAt);
        payload.set("notes", notes);
        return event("approval.request", payload);
    }

    static ObjectNode payload(String sessionKey) {
        return ApiJson.MAPPER.createObjectNode().put("sessionKey", sessionKey);
    }

    /** A payload of one field. */
    static ObjectNode payloadOf(String field, String value) {
        return ApiJson.MAPPER.createObjectNode().put(field, value);
    }

    static ObjectNode event(String name, ObjectNode payload) {
        ObjectNode event = ApiJson.MAPPER.createObjectNode().put("type", "event").put("event", name);
        event.set("payload", payload);
        return event;
    }

    /** The response to request {@code id}, with its result object to fill. */
    static ObjectNode response(JsonNode id, ObjectNode result) {
        ObjectNode response = ApiJson.MAPPER.createObjectNode().put("type", "response");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    static ObjectNode error(JsonNode id, String code, String message) {
        ObjectNode response = ApiJson.MAPPER.createObjectNode().put("type", "response");
        response.set("id", id);
        response.putObject("error").put("code", code).put("message", message);
        return response;
    }

    /**
     * {@code agent.chunk}, the frame every streamed chunk is: the same text {@code event("agent.chunk",
     * payload(sessionKey).put("chunk", text))} writes, without two JSON trees and a serializer per chunk.
     */
    static String chunk(String sessionKey, String text) {
        StringBuilder frame = new StringBuilder(80 + sessionKey.length() + text.length());
        frame.append("{\"type\":\"event\",\"event\":\"agent.chunk\",\"payload\":{\"sessionKey\":\"");
        JsonStringEncoder.getInstance().quoteAsString(sessionKey, frame);
        frame.append("\",\"chunk\":\"");
        JsonStringEncoder.getInstance().quoteAsString(text, frame);
        return frame.append("\"}}").toString();
    }

    /** Frames of one connection go out one at a time and in order, never blocking the sender. */
    static void send(Session session, JsonNode frame) {
        FrameOutbox.send(session, frame.toString());
    }
}
