package ai.lango.adk.models;

import ai.lango.config.Keys;
import ai.lango.prompt.Bounded;
import ai.lango.provider.ChatMessage;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.ToolDeclaration;
import ai.lango.session.ToolCall;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.JsonBaseModel;
import com.google.adk.models.LlmRequest;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Tool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ADK's LlmRequest to a provider-neutral {@link ChatRequest}: the system instruction first, the
 * contents in order (function call ids kept, "call_" + name when missing), the declared tools as
 * JSON Schema.
 */
final class RequestConversion {

    private static final ObjectMapper MAPPER = JsonBaseModel.getMapper();

    private RequestConversion() {
    }

    /** The request, with each tool call's arguments and each tool result bounded to {@code toolChars} characters. */
    static ChatRequest toChatRequest(LlmRequest request, String model, int toolChars) {
        List<ChatMessage> messages = new ArrayList<>();
        systemInstruction(request).ifPresent(text -> messages.add(ChatMessage.system(text)));
        messages.addAll(convertMessages(request.contents(), toolChars));
        Optional<GenerateContentConfig> config = request.config();
        return new ChatRequest(request.model().orElse(model), opensWithUser(ToolCallPairing.repair(messages)), tools(request),
                config.flatMap(GenerateContentConfig::temperature).map(Float::doubleValue).orElse(null),
                config.flatMap(GenerateContentConfig::maxOutputTokens).orElse(null));
    }

    /**
     * The conversation from its first user message on, the system message kept: a history cut to
     * the token budget may begin with an answer (or a call and its results) whose question was cut
     * away, and providers refuse or misread a conversation that opens with the model's own words.
     * A request with no user message at all is left as it is.
     */
    static List<ChatMessage> opensWithUser(List<ChatMessage> messages) {
        int start = messages.isEmpty() || messages.get(0).role() != ChatMessage.Role.SYSTEM ? 0 : 1;
        int firstUser = start;
        while (firstUser < messages.size() && messages.get(firstUser).role() != ChatMessage.Role.USER) {
            firstUser++;
        }
        if (firstUser == start || firstUser == messages.size()) {
            return messages;
        }
        List<ChatMessage> kept = new ArrayList<>(messages.subList(0, start));
        kept.addAll(messages.subList(firstUser, messages.size()));
        return kept;
    }

    /** The system instruction's text parts joined with newlines; empty when there is none. */
    static Optional<String> systemInstruction(LlmRequest request) {
        return request.config().flatMap(GenerateContentConfig::systemInstruction)
                .flatMap(Content::parts)
                .map(parts -> parts.stream().flatMap(p -> p.text().stream()).toList())
                .filter(texts -> !texts.isEmpty())
                .map(texts -> String.join("\n", texts));
    }

    /** convertMessages: user text, model text with function calls, function responses as tool messages. */
    static List<ChatMessage> convertMessages(List<Content> contents) {
        return convertMessages(contents, Integer.MAX_VALUE);
    }

    static List<ChatMessage> convertMessages(List<Content> contents, int toolChars) {
        List<ChatMessage> messages = new ArrayList<>();
        for (Content content : contents) {
            List<Part> parts = content.parts().orElse(List.of());
            StringBuilder text = new StringBuilder();
            List<ChatMessage.ToolCall> calls = new ArrayList<>();
            List<ChatMessage> responses = new ArrayList<>();
            for (Part part : parts) {
                part.text().ifPresent(text::append);
                part.functionCall().ifPresent(call -> calls.add(toolCall(call, toolChars)));
                part.functionResponse().ifPresent(response -> responses.add(toolResult(response, toolChars)));
            }
            boolean fromModel = content.role().map("model"::equals).orElse(false);
            if (fromModel) {
                if (text.length() > 0 || !calls.isEmpty()) {
                    messages.add(ChatMessage.assistant(text.toString(), calls));
                }
            } else {
                messages.addAll(responses);
                if (text.length() > 0) {
                    messages.add(ChatMessage.user(text.toString()));
                }
            }
        }
        return messages;
    }

    /** A tool call as the model made it; arguments longer than {@code toolChars} are cut (the tool had them whole). */
    private static ChatMessage.ToolCall toolCall(FunctionCall call, int toolChars) {
        String name = call.name().orElse("");
        return new ChatMessage.ToolCall(id(call.id(), name), name, json(Bounded.value(call.args().orElse(Map.of()), toolChars,
                "these arguments were cut to " + toolChars + " characters in this request (" + Keys.TOOL_IO_MAX_CHARS
                        + "); the tool received them whole")));
    }

    /** A tool's result; one longer than {@code toolChars} is cut, with a note on how to get the rest. */
    private static ChatMessage toolResult(FunctionResponse response, int toolChars) {
        String name = response.name().orElse("");
        return ChatMessage.tool(id(response.id(), name), name, json(Bounded.value(response.response().orElse(Map.of()),
                toolChars, "this result was cut to " + toolChars + " characters (" + Keys.TOOL_IO_MAX_CHARS
                        + "); ask the tool for a smaller part, such as fs_read with startLine and endLine")));
    }

    private static String id(Optional<String> id, String name) {
        return id.filter(s -> !s.isBlank()).orElse(ToolCall.syntheticId(name));
    }

    /** Tool declarations as JSON Schema (genai schemas spell types in capitals; JSON Schema does not). */
    static List<ToolDeclaration> tools(LlmRequest request) {
        List<ToolDeclaration> declarations = new ArrayList<>();
        for (Tool tool : request.config().flatMap(GenerateContentConfig::tools).orElse(List.of())) {
            for (FunctionDeclaration function : tool.functionDeclarations().orElse(List.of())) {
                declarations.add(converted(function));
            }
        }
        return declarations;
    }

    /** Declarations already converted: an agent offers the same tools at every model call. */
    private static final Map<FunctionDeclaration, ToolDeclaration> CONVERTED = new ConcurrentHashMap<>();

    /** At most this many are kept (tools made at run time, such as an MCP server's, could be many). */
    private static final int MAX_CONVERTED = 1024;

    private static ToolDeclaration converted(FunctionDeclaration function) {
        ToolDeclaration known = CONVERTED.get(function);
        if (known != null) {
            return known;
        }
        ToolDeclaration made = new ToolDeclaration(function.name().orElse(""), function.description().orElse(""),
                Collections.unmodifiableMap(parameters(function)));
        if (CONVERTED.size() < MAX_CONVERTED) {
            CONVERTED.put(function, made);
        }
        return made;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parameters(FunctionDeclaration function) {
        JsonNode schema;
        if (function.parametersJsonSchema().isPresent()) {
            schema = MAPPER.valueToTree(function.parametersJsonSchema().get());
        } else if (function.parameters().isPresent()) {
            schema = lowerCaseTypes(MAPPER.valueToTree(function.parameters().get()));
        } else {
            schema = MAPPER.createObjectNode().put("type", "object").set("properties", MAPPER.createObjectNode());
        }
        return MAPPER.convertValue(schema, Map.class);
    }

    private static JsonNode lowerCaseTypes(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            List<String> names = new ArrayList<>();
            fields.forEachRemaining(e -> names.add(e.getKey()));
            for (String name : names) {
                JsonNode value = object.get(name);
                if (name.equals("type") && value.isTextual()) {
                    object.put("type", value.asText().toLowerCase(Locale.ROOT));
                } else {
                    lowerCaseTypes(value);
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(RequestConversion::lowerCaseTypes);
        }
        return node;
    }

    static String json(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not serialisable as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
