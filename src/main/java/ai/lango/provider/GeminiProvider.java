package ai.lango.provider;

import ai.lango.net.sse.SseReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The Gemini API's streamGenerateContent, read as server-sent events (alt=sse). */
public final class GeminiProvider extends SseProvider {

    public GeminiProvider(ProviderSettings settings) {
        super(settings);
    }

    @Override
    public OpenStream open(ChatRequest request) {
        // A header, never the ?key= parameter: URLs end up in logs and exception messages.
        Map<String, String> headers = keyHeader("x-goog-api-key", "");
        String model = request.model().startsWith("models/") ? request.model().substring(7) : request.model();
        String path = "/v1beta/models/" + URLEncoder.encode(model, StandardCharsets.UTF_8)
                + ":streamGenerateContent?alt=sse";
        return stream(request.abort(), path, headers, requestBody(request, transport).toString(), new ChunkDecoder(transport));
    }

    static ObjectNode requestBody(ChatRequest request, HttpTransport transport) {
        ObjectNode body = HttpTransport.JSON.createObjectNode();
        ArrayNode contents = body.putArray("contents");
        List<String> system = new ArrayList<>();
        String lastRole = null;
        ArrayNode lastParts = null;
        for (ChatMessage m : request.messages()) {
            if (m.role() == ChatMessage.Role.SYSTEM) {
                if (!m.content().isEmpty()) {
                    system.add(m.content());
                }
                continue;
            }
            String role = m.role() == ChatMessage.Role.ASSISTANT ? "model" : "user";
            ArrayNode parts = HttpTransport.JSON.createArrayNode();
            switch (m.role()) {
                case USER -> parts.addObject().put("text", m.content());
                case ASSISTANT -> {
                    if (!m.content().isEmpty()) {
                        parts.addObject().put("text", m.content());
                    }
                    for (ChatMessage.ToolCall call : m.toolCalls()) {
                        ObjectNode args = Schemas.objectOrNull(call.arguments());
                        if (args == null) {
                            throw transport.failure(ProviderException.Kind.BAD_REQUEST, "arguments of tool call "
                                    + call.id() + " (" + call.name() + ") are not a JSON object", null);
                        }
                        ObjectNode fc = parts.addObject().putObject("functionCall");
                        fc.put("name", call.name());
                        fc.set("args", args);
                    }
                }
                case TOOL -> {
                    ObjectNode fr = parts.addObject().putObject("functionResponse");
                    fr.put("name", m.toolName());
                    ObjectNode response = m.content().isBlank() ? null : Schemas.objectOrNull(m.content());
                    if (response == null) {
                        // Gemini wants an object here; plain text (or an array) is wrapped.
                        response = HttpTransport.JSON.createObjectNode().put("result", m.content());
                    }
                    fr.set("response", response);
                }
                default -> throw new IllegalStateException(m.role().toString());
            }
            if (parts.isEmpty()) {
                continue;
            }
            // Parallel function responses must travel in one content, like Anthropic's tool results.
            if (role.equals(lastRole)) {
                lastParts.addAll(parts);
            } else {
                ObjectNode content = contents.addObject();
                content.put("role", role);
                lastParts = content.putArray("parts");
                lastParts.addAll(parts);
                lastRole = role;
            }
        }
        if (!system.isEmpty()) {
            body.putObject("systemInstruction").putArray("parts").addObject().put("text", String.join("\n", system));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode d = declarations.addObject();
                d.put("name", tool.name());
                if (tool.description() != null) {
                    d.put("description", tool.description());
                }
                d.set("parameters", Schemas.parameters(tool));
            }
        }
        if (request.temperature() != null || request.maxTokens() != null) {
            ObjectNode config = body.putObject("generationConfig");
            if (request.temperature() != null) {
                config.put("temperature", request.temperature());
            }
            if (request.maxTokens() != null) {
                config.put("maxOutputTokens", request.maxTokens());
            }
        }
        return body;
    }

    /**
     * Decodes GenerateContentResponse chunks. Gemini has no terminal marker event: the answer is
     * complete when a candidate carried a finishReason and the body then ended normally.
     */
    static final class ChunkDecoder implements SseStream.Decoder {

        private final HttpTransport transport;
        private final Map<String, Integer> callsByName = new HashMap<>();
        private String finishReason;
        private JsonNode usage;

        ChunkDecoder(HttpTransport transport) {
            this.transport = transport;
        }

        @Override
        public boolean onEvent(SseReader.Event event, Consumer<StreamEvent> sink) {
            JsonNode chunk = SseStream.json(transport, event.data());
            if (chunk.isArray() && chunk.size() > 0) {
                chunk = chunk.get(0);
            }
            if (chunk.hasNonNull("error")) {
                throw transport.streamedError(ProviderException.Kind.SERVER_ERROR, chunk.get("error"));
            }
            JsonNode candidate = chunk.path("candidates").path(0);
            for (JsonNode part : candidate.path("content").path("parts")) {
                if (part.path("thought").asBoolean(false)) {
                    continue; // the model's reasoning summary is not part of the answer
                }
                String text = SseStream.text(part.get("text"));
                if (!text.isEmpty()) {
                    sink.accept(new StreamEvent.TextDelta(text));
                }
                JsonNode call = part.path("functionCall");
                if (call.isObject()) {
                    String name = SseStream.text(call.get("name"));
                    JsonNode args = call.path("args");
                    sink.accept(new StreamEvent.ToolCallEvent(callId(call, name), name,
                            args.isObject() ? args.toString() : "{}"));
                }
            }
            if (candidate.path("finishReason").isTextual()) {
                finishReason = candidate.get("finishReason").asText();
            }
            JsonNode blocked = chunk.path("promptFeedback").path("blockReason");
            if (blocked.isTextual() && finishReason == null) {
                finishReason = blocked.asText(); // a refused prompt ends without candidates
            }
            if (chunk.path("usageMetadata").isObject()) {
                usage = chunk.get("usageMetadata"); // counts are cumulative: keep the latest
            }
            return false;
        }

        /** Gemini's calls carry no id (older models) — derive a stable one from the name. */
        private String callId(JsonNode call, String name) {
            String given = SseStream.text(call.get("id"));
            if (!given.isEmpty()) {
                return given;
            }
            int n = callsByName.merge(name, 1, Integer::sum);
            return n == 1 ? "call_" + name : "call_" + name + "_" + n;
        }

        @Override
        public void onEnd(Consumer<StreamEvent> sink) {
            if (finishReason == null) {
                throw transport.failure(ProviderException.Kind.BROKEN_STREAM, transport.id()
                        + " stream ended before a finishReason; the answer is incomplete", null);
            }
            if (usage != null) {
                sink.accept(new StreamEvent.Usage(usage.path("promptTokenCount").asInt(),
                        usage.path("candidatesTokenCount").asInt(), usage.path("cachedContentTokenCount").asInt()));
            }
            sink.accept(new StreamEvent.Done(finishReason));
        }
    }
}
