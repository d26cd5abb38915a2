package ai.lango.adk.sessions;

import ai.lango.prompt.Bounded;
import ai.lango.session.Message;
import ai.lango.session.Roles;
import ai.lango.session.ToolCall;
import ai.lango.tool.ToolArtifacts;
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

    /**
     * The most characters of one tool call's arguments, one tool result or one text part that a
     * stored event keeps; the rest is cut with a marker. A row stays far below what a database row or
     * the embedded database's cache holds (16 MiB and 10 MB), so a huge tool call is recorded rather
     * than failing its write; the tool itself had everything.
     */
    static final int STORED_PART_CHARS = 1_000_000;
    private static final String STORED_NOTE = "cut to " + STORED_PART_CHARS + " characters for storage; the tool had it whole";

    /** The message an event is stored as; empty when it carries no content (a pure state change). */
    public static Optional<Message> toMessage(Event event) {
        if (CompactedHistory.isCompaction(event)) {
            // no content of its own: the summary is the row's content, the event (its range) its raw JSON
            String summary = CompactedHistory.summaryText(event.actions().compaction().get());
            return Optional.of(new Message(Roles.COMPACTION, summary, Instant.ofEpochMilli(event.timestamp()),
                    event.author(), List.of(), event.toJson()));
        }
        if (event.content().flatMap(Content::parts).orElse(List.of()).isEmpty()) {
            return Optional.empty();
        }
        event = bounded(event);
        List<Part> parts = event.content().flatMap(Content::parts).orElse(List.of());
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

    /** The event with every part within {@link #STORED_PART_CHARS} (itself when it already is). */
    static Event bounded(Event event) {
        List<Part> parts = event.content().flatMap(Content::parts).orElse(List.of());
        List<Part> kept = new ArrayList<>(parts.size());
        boolean cut = false;
        for (Part part : parts) {
            Part bounded = bounded(part);
            cut |= bounded != part;
            kept.add(bounded);
        }
        if (!cut) {
            return event;
        }
        Content content = event.content().get();
        return event.toBuilder().content(content.toBuilder().parts(kept).build()).build();
    }

    private static Part bounded(Part part) {
        if (part.text().filter(t -> t.length() > STORED_PART_CHARS).isPresent()) {
            return part.toBuilder().text(Bounded.text(part.text().get(), STORED_PART_CHARS)).build();
        }
        if (part.functionCall().isPresent()) {
            FunctionCall call = part.functionCall().get();
            Map<String, Object> args = call.args().orElse(Map.of());
            Object cut = Bounded.value(args, STORED_PART_CHARS, STORED_NOTE);
            return cut == args ? part : part.toBuilder().functionCall(call.toBuilder().args(asMap(cut)).build()).build();
        }
        if (part.functionResponse().isPresent()) {
            FunctionResponse response = part.functionResponse().get();
            Map<String, Object> output = response.response().orElse(Map.of());
            Object cut = Bounded.value(output, STORED_PART_CHARS, STORED_NOTE);
            return cut == output ? part
                    : part.toBuilder().functionResponse(response.toBuilder().response(asMap(cut)).build()).build();
        }
        return part;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
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
                        .actions(actionsOf(content))
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

    /** A tool event's artifacts (name → version), named by its results as when it ran, for the dev UI to show again. */
    private static EventActions actionsOf(Content content) {
        EventActions actions = EventActions.builder().build();
        for (Part part : content.parts().orElse(List.of())) {
            part.functionResponse().flatMap(FunctionResponse::response).flatMap(ToolArtifacts::of)
                    .ifPresent(artifact -> actions.artifactDelta().put(artifact.getKey(), artifact.getValue()));
        }
        return actions;
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
