package ai.lango.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stored session (ADK's session JSON, as the dev UI reads it) as the invocations of an eval case: each message
 * the user typed starts one; the agents' tool calls, the agents a turn was handed to, the approvals asked (ADK's
 * confirmation calls: the tool and the call's arguments) with the person's answers, and the last text an agent wrote
 * belong to it. Streamed chunks
 * are left out (the stored answer holds them whole).
 */
public final class SessionConversation {

    private SessionConversation() {
    }

    public static List<Invocation> invocations(JsonNode session) {
        List<Builder> built = new ArrayList<>();
        Builder current = null;
        Map<String, Invocation.ApprovalStep> askedFor = new HashMap<>(); // confirmation call id -> the call it asked about
        for (JsonNode event : session.path("events")) {
            if (event.path("partial").asBoolean(false)) {
                continue;
            }
            String author = event.path("author").asText("");
            JsonNode parts = event.path("content").path("parts");
            if (author.equals("user")) {
                List<String> texts = new ArrayList<>();
                for (JsonNode part : parts) {
                    JsonNode response = part.path("functionResponse");
                    if (response.isObject() && EvalFormat.CONFIRMATION.equals(response.path("name").asText()) && current != null) {
                        Invocation.ApprovalStep asked = askedFor.remove(response.path("id").asText());
                        if (asked != null) {
                            current.approvals.add(new Invocation.ApprovalStep(asked.tool(), response.path("response").path("confirmed")
                                    .asBoolean(false), asked.args()));
                        }
                    } else if (part.path("text").isTextual()) {
                        texts.add(part.path("text").asText());
                    }
                }
                if (!texts.isEmpty()) {
                    current = new Builder(event.path("invocationId").asText(""), String.join("\n", texts),
                            event.path("timestamp").asDouble(0));
                    built.add(current);
                }
                continue;
            }
            if (current == null) {
                continue;
            }
            List<String> texts = new ArrayList<>();
            for (JsonNode part : parts) {
                JsonNode call = part.path("functionCall");
                if (call.isObject()) {
                    String name = call.path("name").asText();
                    if (EvalFormat.CONFIRMATION.equals(name)) {
                        JsonNode args = call.path("args");
                        JsonNode payload = args.path("toolConfirmation").path("payload");
                        JsonNode original = args.path("originalFunctionCall");
                        String tool = payload.path("tool").asText(original.path("name").asText("?"));
                        // the call's arguments, as the request stored them (else as ADK's confirmation repeats them)
                        JsonNode asked = payload.path("args").isObject() ? payload.path("args")
                                : original.path("args").isObject() ? original.path("args") : null;
                        askedFor.put(call.path("id").asText(), new Invocation.ApprovalStep(tool, false,
                                asked == null ? null : asked.deepCopy()));
                    } else {
                        current.toolUses.add(new Invocation.ToolUse(name, call.path("args").isObject() ? call.path("args").deepCopy()
                                : EvalFormat.MAPPER.createObjectNode()));
                    }
                } else if (part.path("text").isTextual() && !part.path("thought").asBoolean(false)) {
                    texts.add(part.path("text").asText());
                }
            }
            String to = event.path("actions").path("transferToAgent").asText("");
            if (!to.isEmpty()) {
                current.delegations.add(to);
            }
            if (!texts.isEmpty()) {
                current.answer = String.join("", texts);
            }
        }
        return built.stream().map(Builder::build).toList();
    }

    private static final class Builder {
        final String id;
        final String userText;
        final double created;
        final List<Invocation.ToolUse> toolUses = new ArrayList<>();
        final List<String> delegations = new ArrayList<>();
        final List<Invocation.ApprovalStep> approvals = new ArrayList<>();
        String answer;

        Builder(String id, String userText, double created) {
            this.id = id;
            this.userText = userText;
            this.created = created;
        }

        Invocation build() {
            return new Invocation(id, userText, answer == null ? "" : answer, toolUses, delegations, approvals, created, null);
        }
    }
}
