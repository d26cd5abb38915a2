package ai.lango.api.chat;

import static ai.lango.api.chat.ChatFrames.approvalRequest;
import static ai.lango.api.chat.ChatFrames.error;
import static ai.lango.api.chat.ChatFrames.event;
import static ai.lango.api.chat.ChatFrames.payload;
import static ai.lango.api.chat.ChatFrames.send;

import ai.lango.api.ApiJson;
import ai.lango.api.TurnFailures;
import ai.lango.turn.TurnEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.websocket.Session;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** A turn's events as frames to one socket, and its end: {@code agent.done} and the response to the request that started it. */
final class TurnStream {

    private TurnStream() {
    }

    /**
     * The turn's events to the socket. A request for approval goes to {@code onApproval} before the
     * client sees it, so that however soon the answer comes, whoever resumes the turn knows which
     * request gets its response when the resumed turn ends.
     */
    static Consumer<TurnEvent> listener(Consumer<TurnEvent.ApprovalRequest> onApproval, Session session, String sessionKey,
                                        List<String> asked) {
        return event -> {
            if (event instanceof TurnEvent.ApprovalRequest request) {
                onApproval.accept(request);
            }
            forward(session, sessionKey, event, asked);
        };
    }

    /**
     * The turns of the socket's user that the server resumed after a crash or started itself (a schedule's fire: first
     * {@code agent.scheduled} with its message), which no request of this socket waits for: their events as any turn's,
     * and their end as {@code agent.done} (after {@code agent.failed} when it failed).
     */
    static ai.lango.turns.Resumes.Watcher watcher(Session session) {
        return new ai.lango.turns.Resumes.Watcher() {
            @Override
            public void heard(String sessionKey, TurnEvent event) {
                forward(session, sessionKey, event, new java.util.ArrayList<>());
            }

            @Override
            public void scheduled(String sessionKey, String message, String scheduleId) {
                send(session, event("agent.scheduled", payload(sessionKey).put("message", message).put("scheduleId", scheduleId)));
            }

            @Override
            public void ended(String sessionKey, java.util.Optional<String> failure) {
                failure.ifPresent(why -> send(session, event("agent.failed", payload(sessionKey).put("message", why))));
                send(session, event("agent.done", payload(sessionKey)));
            }
        };
    }

    /**
     * When a turn ends: {@code agent.done} and the response to request {@code id} (none when null).
     * A turn that ended waiting for approvals ({@code asked}) has not ended for its client: the desk
     * holds the request until the answer's turn ends — in memory only, nothing waits on a thread.
     */
    static void finish(Session session, JsonNode id, String sessionKey, CompletableFuture<String> turn, List<String> asked) {
        turn.whenComplete((answer, failure) -> {
            if (failure == null && !asked.isEmpty()) {
                return;
            }
            send(session, event("agent.done", payload(sessionKey)));
            if (id == null) {
                return;
            }
            if (failure == null) {
                send(session, ChatFrames.response(id, ApiJson.MAPPER.createObjectNode().put("response", answer)));
            } else {
                String code = TurnFailures.of(failure).code();
                send(session, error(id, code.equals("run_failed") ? "turn_failed" : code, failure.getMessage()));
            }
        });
    }

    /**
     * One event of the turn as the client sees it: chunks, tool calls, tool results, delegations,
     * requests for approval (whose ids go to {@code asked}).
     */
    static void forward(Session session, String sessionKey, TurnEvent event, List<String> asked) {
        if (event instanceof TurnEvent.Chunk chunk) { // most frames of a turn
            FrameOutbox.send(session, ChatFrames.chunk(sessionKey, chunk.text()));
            return;
        }
        ObjectNode payload = payload(sessionKey);
        String name;
        if (event instanceof TurnEvent.ApprovalRequest request) {
            asked.add(request.approvalId());
            send(session, approvalRequest(sessionKey, request.approvalId(), request.agent(), request.tool(),
                    ApiJson.MAPPER.valueToTree(request.args()), request.safety(), request.expiresAt(),
                    ApiJson.MAPPER.valueToTree(request.notes())));
            return;
        }
        if (event instanceof TurnEvent.ToolCall call) {
            name = "agent.tool_call";
            payload.put("agent", call.agent()).put("id", call.id()).put("name", call.name());
            payload.set("args", ApiJson.MAPPER.valueToTree(call.args()));
        } else if (event instanceof TurnEvent.ToolResult result) {
            name = "agent.tool_result";
            payload.put("agent", result.agent()).put("id", result.id()).put("name", result.name());
            payload.set("result", ApiJson.MAPPER.valueToTree(result.result()));
        } else if (event instanceof TurnEvent.ToolProgress progress) {
            name = "agent.tool_progress";
            payload.put("name", progress.tool()).put("progress", progress.progress()).put("total", progress.total())
                    .put("message", progress.message());
        } else if (event instanceof TurnEvent.Resumed resumed) {
            name = "agent.resumed";
            payload.put("agent", resumed.agent()).put("note", resumed.note());
        } else {
            TurnEvent.Delegation delegation = (TurnEvent.Delegation) event;
            name = "agent.delegation";
            payload.put("from", delegation.agent()).put("to", delegation.to());
        }
        send(session, event(name, payload));
    }
}
