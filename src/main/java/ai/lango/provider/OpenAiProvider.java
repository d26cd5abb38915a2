package ai.lango.provider;

import ai.lango.net.sse.SseReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The OpenAI Chat Completions streaming API. Also serves Ollama (id "ollama"), whose /v1 endpoint
 * speaks the same format and needs no key.
 */
public final class OpenAiProvider extends SseProvider {

    public OpenAiProvider(ProviderSettings settings) {
        super(settings);
    }

    @Override
    public OpenStream open(ChatRequest request) {
        return stream(request.abort(), "/chat/completions", keyHeader("Authorization", "Bearer "), requestBody(request).toString(),
                new ChunkDecoder(transport));
    }

    /** The JSON body of a streaming chat completion request. */
    static ObjectNode requestBody(ChatRequest request) {
        ObjectNode body = HttpTransport.JSON.createObjectNode();
        body.put("model", request.model());
        body.put("stream", true);
        // Without this the stream carries no token counts.
        body.putObject("stream_options").put("include_usage", true);
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : request.messages()) {
            ObjectNode out = messages.addObject();
            switch (m.role()) {
                case SYSTEM -> out.put("role", "system").put("content", m.content());
                case USER -> out.put("role", "user").put("content", m.content());
                case ASSISTANT -> {
                    out.put("role", "assistant");
                    if (m.content().isEmpty() && !m.toolCalls().isEmpty()) {
                        out.putNull("content"); // the API's form for "only tool calls"
                    } else {
                        out.put("content", m.content());
                    }
                    if (!m.toolCalls().isEmpty()) {
                        ArrayNode calls = out.putArray("tool_calls");
                        for (ChatMessage.ToolCall call : m.toolCalls()) {
                            ObjectNode c = calls.addObject();
                            c.put("id", call.id());
                            c.put("type", "function");
                            c.putObject("function").put("name", call.name())
                                    .put("arguments", blankToEmptyObject(call.arguments()));
                        }
                    }
                }
                case TOOL -> out.put("role", "tool").put("tool_call_id", m.toolCallId()).put("content", m.content());
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDeclaration tool : request.tools()) {
                ObjectNode fn = tools.addObject().put("type", "function").putObject("function");
                fn.put("name", tool.name());
                if (tool.description() != null) {
                    fn.put("description", tool.description());
                }
                fn.set("parameters", Schemas.parameters(tool));
            }
        }
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.maxTokens() != null) {
            body.put("max_tokens", request.maxTokens());
        }
        return body;
    }

    private static String blankToEmptyObject(String arguments) {
        return arguments == null || arguments.isBlank() ? "{}" : arguments;
    }

    /**
     * Decodes chat.completion.chunk objects. Tool calls come as fragments keyed by {@code index}:
     * the first carries id and name, the rest pieces of the arguments text; they are emitted whole
     * once the choice finishes.
     */
    static final class ChunkDecoder implements SseStream.Decoder {

        private static final class PendingCall {
            String id = "";
            String name = "";
            final StringBuilder arguments = new StringBuilder();
        }

        private final HttpTransport transport;
        private final Map<Integer, PendingCall> calls = new TreeMap<>();
        private String finishReason;

        ChunkDecoder(HttpTransport transport) {
            this.transport = transport;
        }

        @Override
        public boolean onEvent(SseReader.Event event, Consumer<StreamEvent> sink) {
            String data = event.data().strip();
            if (data.equals("[DONE]")) {
                flushCalls(sink);
                sink.accept(new StreamEvent.Done(finishReason == null ? "stop" : finishReason));
                return true;
            }
            JsonNode chunk = SseStream.json(transport, data);
            if (chunk.hasNonNull("error")) {
                throw transport.streamedError(ProviderException.Kind.SERVER_ERROR, chunk.get("error"));
            }
            JsonNode choice = chunk.path("choices").path(0);
            if (choice.isObject()) {
                JsonNode delta = choice.path("delta");
                String text = SseStream.text(delta.get("content"));
                if (!text.isEmpty()) {
                    sink.accept(new StreamEvent.TextDelta(text));
                }
                for (JsonNode fragment : delta.path("tool_calls")) {
                    collect(fragment);
                }
                if (choice.path("finish_reason").isTextual()) {
                    finishReason = choice.get("finish_reason").asText();
                    flushCalls(sink);
                }
            }
            JsonNode usage = chunk.path("usage");
            if (usage.isObject()) {
                sink.accept(new StreamEvent.Usage(usage.path("prompt_tokens").asInt(),
                        usage.path("completion_tokens").asInt(), usage.path("prompt_tokens_details").path("cached_tokens").asInt()));
            }
            return false;
        }

        private void collect(JsonNode fragment) {
            int index;
            if (fragment.path("index").canConvertToInt()) {
                index = fragment.path("index").asInt();
            } else {
                // Some OpenAI-compatible servers omit the index and send each call whole.
                index = calls.isEmpty() || fragment.hasNonNull("id") ? calls.size() : calls.size() - 1;
            }
            PendingCall call = calls.computeIfAbsent(index, i -> new PendingCall());
            if (fragment.path("id").isTextual() && !fragment.get("id").asText().isEmpty()) {
                call.id = fragment.get("id").asText();
            }
            JsonNode fn = fragment.path("function");
            if (fn.path("name").isTextual() && !fn.get("name").asText().isEmpty()) {
                call.name = fn.get("name").asText();
            }
            call.arguments.append(SseStream.text(fn.get("arguments")));
        }

        private void flushCalls(Consumer<StreamEvent> sink) {
            for (PendingCall call : calls.values()) {
                String arguments = call.arguments.toString();
                sink.accept(new StreamEvent.ToolCallEvent(call.id, call.name,
                        arguments.isBlank() ? "{}" : arguments));
            }
            calls.clear();
        }

        @Override
        public void onEnd(Consumer<StreamEvent> sink) {
            if (finishReason == null) {
                throw transport.failure(ProviderException.Kind.BROKEN_STREAM, transport.id()
                        + " stream ended before the answer was complete (no finish_reason, no [DONE])", null);
            }
            // Some compatible servers end after the finish_reason without "[DONE]": complete all the same.
            flushCalls(sink);
            sink.accept(new StreamEvent.Done(finishReason));
        }
    }
}
