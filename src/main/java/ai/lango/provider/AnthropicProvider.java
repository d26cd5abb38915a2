package ai.lango.provider;

import ai.lango.net.sse.SseReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The Anthropic Messages streaming API. */
public final class AnthropicProvider extends SseProvider {

    static final String API_VERSION = "2023-06-01";

    /** Anthropic requires max_tokens; this applies when the request leaves it open. */
    static final int DEFAULT_MAX_TOKENS = 4096;

    public AnthropicProvider(ProviderSettings settings) {
        super(settings);
    }

    @Override
    public OpenStream open(ChatRequest request) {
        Map<String, String> headers = keyHeader("x-api-key", "");
        headers.put("anthropic-version", API_VERSION);
        return stream(request.abort(), "/v1/messages", headers, requestBody(request, transport).toString(), new EventDecoder(transport));
    }

    static ObjectNode requestBody(ChatRequest request, HttpTransport transport) {
        ObjectNode body = HttpTransport.JSON.createObjectNode();
        body.put("model", request.model());
        body.put("max_tokens", request.maxTokens() == null ? DEFAULT_MAX_TOKENS : request.maxTokens());
        // Anthropic has no system role: system text is a top-level field.
        List<String> system = new ArrayList<>();
        for (ChatMessage m : request.messages()) {
            if (m.role() == ChatMessage.Role.SYSTEM && !m.content().isEmpty()) {
                system.add(m.content());
            }
        }
        if (!system.isEmpty()) {
            body.put("system", String.join("\n", system));
        }
        body.set("messages", messages(request.messages(), transport));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode t = tools.addObject();
                t.put("name", tool.name());
                if (tool.description() != null) {
                    t.put("description", tool.description());
                }
                t.set("input_schema", Schemas.parameters(tool));
            }
        }
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        body.put("stream", true);
        return body;
    }

    /**
     * The conversation as Anthropic messages. Anthropic wants user and assistant turns to
     * alternate, and tool results are user content: so consecutive messages of the same resulting
     * role — above all the results of several parallel tool calls — become one message.
     */
    static ArrayNode messages(List<ChatMessage> messages, HttpTransport transport) {
        ArrayNode out = HttpTransport.JSON.createArrayNode();
        String lastRole = null;
        ArrayNode lastContent = null;
        for (ChatMessage m : messages) {
            if (m.role() == ChatMessage.Role.SYSTEM) {
                continue;
            }
            String role = m.role() == ChatMessage.Role.ASSISTANT ? "assistant" : "user";
            ArrayNode blocks = HttpTransport.JSON.createArrayNode();
            switch (m.role()) {
                case USER -> {
                    if (!m.content().isEmpty()) {
                        blocks.addObject().put("type", "text").put("text", m.content());
                    }
                }
                case ASSISTANT -> {
                    // Anthropic rejects empty text blocks, which a tool-call-only turn would have.
                    if (!m.content().isEmpty()) {
                        blocks.addObject().put("type", "text").put("text", m.content());
                    }
                    for (ChatMessage.ToolCall call : m.toolCalls()) {
                        ObjectNode input = Schemas.objectOrNull(call.arguments());
                        if (input == null) {
                            throw transport.failure(ProviderException.Kind.BAD_REQUEST, "arguments of tool call "
                                    + call.id() + " (" + call.name() + ") are not a JSON object", null);
                        }
                        ObjectNode use = blocks.addObject();
                        use.put("type", "tool_use").put("id", call.id()).put("name", call.name());
                        use.set("input", input);
                    }
                }
                case TOOL -> blocks.addObject().put("type", "tool_result")
                        .put("tool_use_id", m.toolCallId()).put("content", m.content());
                default -> throw new IllegalStateException(m.role().toString());
            }
            if (blocks.isEmpty()) {
                continue;
            }
            if (role.equals(lastRole)) {
                lastContent.addAll(blocks);
            } else {
                ObjectNode message = out.addObject();
                message.put("role", role);
                lastContent = message.putArray("content");
                lastContent.addAll(blocks);
                lastRole = role;
            }
        }
        return out;
    }

    /** Decodes the Messages stream: message_start … content blocks … message_delta, message_stop. */
    static final class EventDecoder implements SseStream.Decoder {

        private static final class Block {
            final String type;
            final String id;
            final String name;
            final StringBuilder json = new StringBuilder();

            Block(String type, String id, String name) {
                this.type = type;
                this.id = id;
                this.name = name;
            }
        }

        private final HttpTransport transport;
        private final Map<Integer, Block> blocks = new HashMap<>();
        private int inputTokens;
        private int outputTokens;
        private boolean usageSeen;
        private int cacheRead;
        private int cacheWrite;
        private String stopReason;

        EventDecoder(HttpTransport transport) {
            this.transport = transport;
        }

        @Override
        public boolean onEvent(SseReader.Event event, Consumer<StreamEvent> sink) {
            JsonNode data = SseStream.json(transport, event.data());
            String type = data.path("type").isTextual() ? data.get("type").asText() : event.event();
            switch (type) {
                case "message_start" -> readUsage(data.path("message").path("usage"));
                case "content_block_start" -> {
                    JsonNode block = data.path("content_block");
                    Block b = new Block(SseStream.text(block.get("type")), SseStream.text(block.get("id")),
                            SseStream.text(block.get("name")));
                    blocks.put(data.path("index").asInt(), b);
                    String text = SseStream.text(block.get("text"));
                    if (b.type.equals("text") && !text.isEmpty()) {
                        sink.accept(new StreamEvent.TextDelta(text));
                    }
                }
                case "content_block_delta" -> {
                    JsonNode delta = data.path("delta");
                    switch (SseStream.text(delta.get("type"))) {
                        case "text_delta" -> {
                            String text = SseStream.text(delta.get("text"));
                            if (!text.isEmpty()) {
                                sink.accept(new StreamEvent.TextDelta(text));
                            }
                        }
                        case "input_json_delta" -> {
                            Block b = blocks.get(data.path("index").asInt());
                            if (b != null) {
                                b.json.append(SseStream.text(delta.get("partial_json")));
                            }
                        }
                        default -> {
                            // thinking and signature deltas are not part of the answer
                        }
                    }
                }
                case "content_block_stop" -> {
                    Block b = blocks.remove(data.path("index").asInt());
                    if (b != null && b.type.equals("tool_use")) {
                        String json = b.json.toString();
                        sink.accept(new StreamEvent.ToolCallEvent(b.id, b.name, json.isBlank() ? "{}" : json));
                    }
                }
                case "message_delta" -> {
                    if (data.path("delta").path("stop_reason").isTextual()) {
                        stopReason = data.path("delta").get("stop_reason").asText();
                    }
                    readUsage(data.path("usage"));
                }
                case "message_stop" -> {
                    if (usageSeen) {
                        // Anthropic counts cache reads and writes apart from input_tokens: the input is all three.
                        sink.accept(new StreamEvent.Usage(inputTokens + cacheRead + cacheWrite, outputTokens, cacheRead));
                    }
                    sink.accept(new StreamEvent.Done(stopReason));
                    return true;
                }
                case "error" -> {
                    JsonNode error = data.path("error");
                    throw transport.streamedError(kindOf(SseStream.text(error.get("type"))), error);
                }
                default -> {
                    // "ping" and event types added later
                }
            }
            return false;
        }

        private void readUsage(JsonNode usage) {
            if (usage.path("cache_read_input_tokens").canConvertToInt()) {
                cacheRead = usage.get("cache_read_input_tokens").asInt();
            }
            if (usage.path("cache_creation_input_tokens").canConvertToInt()) {
                cacheWrite = usage.get("cache_creation_input_tokens").asInt();
            }
            if (usage.path("input_tokens").canConvertToInt()) {
                inputTokens = usage.get("input_tokens").asInt();
                usageSeen = true;
            }
            if (usage.path("output_tokens").canConvertToInt()) {
                outputTokens = usage.get("output_tokens").asInt(); // cumulative: the last count wins
                usageSeen = true;
            }
        }

        private static ProviderException.Kind kindOf(String errorType) {
            return switch (errorType) {
                case "overloaded_error", "api_error" -> ProviderException.Kind.SERVER_ERROR;
                case "rate_limit_error" -> ProviderException.Kind.RATE_LIMITED;
                case "authentication_error", "permission_error" -> ProviderException.Kind.AUTHENTICATION;
                default -> ProviderException.Kind.BAD_REQUEST;
            };
        }

        @Override
        public void onEnd(Consumer<StreamEvent> sink) {
            throw transport.failure(ProviderException.Kind.BROKEN_STREAM,
                    transport.id() + " stream ended before message_stop; the answer is incomplete", null);
        }
    }
}
