package ai.lango.adk.sessions;

import ai.lango.session.Message;
import ai.lango.session.Roles;
import ai.lango.session.ToolCall;
import ai.lango.turn.Names;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.JsonBaseModel;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ADK events to stored messages and back. An event stored by Lango keeps its own JSON and reads
 * back identical; a message stored without one (older data, imports) is reconstructed from its
 * role, content and tool calls.
 */
public final class EventMessages {

    /** Author of the user's own events. */

    private static final ObjectMapper MAPPER = JsonBaseModel.getMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {
    };

    private EventMessages() {
    }

    /** The message an event is stored as; empty when it carries no content (a pure state change). */
    public static Optional<Message> toMessage(Event event) {
        List<Part> parts = event.content().flatMap(Content::parts).orElse(List.of());
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        boolean responds = false;
        for (Part part : parts) {
            part.text().ifPresent(text::append);
            if (part.functionCall().isPresent()) {
                FunctionCall call = part.functionCall().get();
                String name = call.name().orElse("");
                calls.add(new ToolCall(idOr(call.id(), name), name, json(call.args().orElse(Map.of())), null));
            }
            if (part.functionResponse().isPresent()) {
                FunctionResponse response = part.functionResponse().get();
                String name = response.name().orElse("");
                String output = json(response.response().orElse(Map.of()));
                calls.add(new ToolCall(idOr(response.id(), name), name, null, output));
                text.append(output); // kept in content too, for readers of the content column alone
                responds = true;
            }
        }
        String role = responds ? Roles.TOOL : roleOf(event);
        return Optional.of(new Message(role, text.toString(), Instant.ofEpochMilli(event.timestamp()),
                event.author(), calls, event.toJson()));
    }

    /**
     * A turn's ending error as a stored message: the event (no content, so no model ever reads it)
     * with its error code and message, and the message as content for readers of the stored form.
     */
    static Message errorMessage(Event event) {
        return new Message(Roles.ASSISTANT, event.errorMessage().orElse(""), Instant.ofEpochMilli(event.timestamp()),
                event.author(), List.of(), event.toJson());
    }

    /**
     * The events of stored messages, oldest first. Authors: a stored author wins; otherwise user →
     * "user", anything else (assistant, model, tool, unknown roles) → the root agent. Never the
     * literal "model", and never a name ADK would take for another agent: ADK for Java rewrites
     * events of other authors into "For context:" user text, which would orphan a function call.
     */
    public static List<Event> toEvents(List<Message> messages, String rootAgentName) {
        String root = rootAgentName == null || rootAgentName.isBlank() ? Names.SINGLE_AGENT : rootAgentName;
        List<Event> events = new ArrayList<>(messages.size());
        List<ToolCall> pendingCalls = List.of();
        int answered = 0;
        for (Message message : messages) {
            String role = Roles.normalize(message.role());
            if (message.raw() != null) {
                events.add(Event.fromJson(message.raw()));
            } else {
                Content content;
                if (Roles.TOOL.equals(role)) {
                    content = toolContent(message, pendingCalls, answered);
                    answered++;
                } else {
                    content = Content.builder().role(Roles.ASSISTANT.equals(role) ? Roles.MODEL : Roles.USER)
                            .parts(partsOf(message)).build();
                }
                events.add(Event.builder()
                        .id(Event.generateEventId())
                        .invocationId("")
                        .author(authorOf(message, role, root))
                        .content(content)
                        .actions(EventActions.builder().build())
                        .timestamp(message.timestamp().toEpochMilli())
                        .build());
            }
            if (Roles.ASSISTANT.equals(role) && message.hasToolCalls()) {
                pendingCalls = message.toolCalls();
                answered = 0;
            } else if (!Roles.TOOL.equals(role)) {
                pendingCalls = List.of();
            }
        }
        return events;
    }

    private static String authorOf(Message message, String role, String root) {
        if (message.author() != null && !message.author().isBlank()) {
            return message.author();
        }
        return Roles.USER.equals(role) ? Names.USER_AUTHOR : root;
    }

    /** Assistant text plus a function call per stored tool call; user and system messages are text. */
    private static List<Part> partsOf(Message message) {
        List<Part> parts = new ArrayList<>();
        if (!message.content().isEmpty() || !message.hasToolCalls()) {
            parts.add(Part.fromText(message.content()));
        }
        for (ToolCall call : message.toolCalls()) {
            if (call.input() != null || call.output() == null) {
                parts.add(Part.builder().functionCall(FunctionCall.builder()
                        .id(call.id()).name(call.name()).args(arguments(call.input())).build()).build());
            }
        }
        return parts;
    }

    /**
     * A tool message: its stored responses, or — for legacy rows without tool calls — the response
     * to the preceding assistant's call at the same position, or plain text when there is none.
     */
    private static Content toolContent(Message message, List<ToolCall> pendingCalls, int position) {
        List<Part> parts = new ArrayList<>();
        for (ToolCall call : message.toolCalls()) {
            if (call.output() != null) {
                parts.add(responsePart(call.id(), call.name(), call.output()));
            }
        }
        if (parts.isEmpty() && position < pendingCalls.size()) {
            ToolCall call = pendingCalls.get(position);
            parts.add(responsePart(call.id(), call.name(), message.content()));
        }
        if (parts.isEmpty()) {
            parts.add(Part.fromText(message.content()));
        }
        return Content.builder().role(Roles.FUNCTION).parts(parts).build();
    }

    private static Part responsePart(String id, String name, String output) {
        return Part.builder().functionResponse(FunctionResponse.builder()
                .id(id).name(name).response(response(output)).build()).build();
    }

    /** Arguments as stored: a JSON object; anything else is kept verbatim under "_raw". */
    static Map<String, Object> arguments(String input) {
        if (input == null || input.isBlank()) {
            return Map.of();
        }
        return object(input).orElseGet(() -> Map.of("_raw", input));
    }

    /** A response as stored: a JSON object; another JSON value or plain text goes under "result". */
    static Map<String, Object> response(String output) {
        if (output == null || output.isBlank()) {
            return Map.of();
        }
        return object(output).orElseGet(() -> {
            try {
                return Map.of("result", MAPPER.readValue(output, Object.class));
            } catch (JsonProcessingException notJson) {
                return Map.of("result", output);
            }
        });
    }

    private static Optional<Map<String, Object>> object(String json) {
        try {
            return Optional.of(MAPPER.readValue(json, MAP));
        } catch (JsonProcessingException | RuntimeException notAnObject) {
            return Optional.empty();
        }
    }

    private static String roleOf(Event event) {
        Optional<String> role = event.content().flatMap(Content::role).map(Roles::normalize);
        return role.orElse(Names.USER_AUTHOR.equals(event.author()) ? Roles.USER : Roles.ASSISTANT);
    }

    private static String idOr(Optional<String> id, String name) {
        return id.filter(s -> !s.isBlank()).orElse(ToolCall.syntheticId(name));
    }

    private static String json(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("value is not serialisable as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
