package ai.lango.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A scriptable stand-in for OpenAI, Anthropic and Gemini on 127.0.0.1. Each request, whatever its
 * path, takes the next scripted {@link Reply}; with none left it answers 500 "no scripted reply".
 * Every request is recorded. Streamed replies are flushed frame by frame, so clients really
 * stream. Depends on the JDK and Jackson only.
 */
public final class FakeLlmServer implements AutoCloseable {

    private static final ObjectMapper JSON = TestJson.MAPPER;

    /** A request as received: header names lower-cased, body as text and (when it is JSON) as a tree. */
    public record Recorded(String method, String path, Map<String, List<String>> headers, String body, JsonNode json) {

        /** The first value of a header, or null. */
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final List<Route> routes = new CopyOnWriteArrayList<>();

    /** Requests this route matches are answered by it, every time, before the scripted queue is asked. */
    private record Route(Predicate<Recorded> matches, Function<Recorded, Reply> reply) {
    }

    private FakeLlmServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static FakeLlmServer start() {
        return start(0);
    }

    /** On a fixed port: integration tests point the server's configuration at it before it starts. */
    public static FakeLlmServer start(int port) {
        try {
            HttpServer server = bind(port);
            ExecutorService executor = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "fake-llm");
                t.setDaemon(true);
                return t;
            });
            server.setExecutor(executor); // delayed or stalled replies must not hold up other requests
            FakeLlmServer fake = new FakeLlmServer(server, executor);
            server.createContext("/", fake::handle);
            server.start();
            return fake;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the fake LLM server", e);
        }
    }

    /**
     * Binds the port, retrying for a few seconds: the previous test's fake on the same fixed port may
     * still be letting go of it (seen once in CI: "Address already in use" right after a close).
     */
    private static HttpServer bind(int port) throws IOException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            try {
                return HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
            } catch (java.net.BindException inUse) {
                if (port == 0 || System.nanoTime() > deadline) {
                    throw inUse;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw inUse;
                }
            }
        }
    }

    /** E.g. http://127.0.0.1:54321 (no trailing slash). */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Forgets scripted replies and recorded requests, for the next test on a shared server. */
    public FakeLlmServer reset() {
        replies.clear();
        requests.clear();
        routes.clear();
        return this;
    }

    public FakeLlmServer enqueue(Reply reply) {
        replies.add(reply);
        return this;
    }

    /**
     * Answers every request that {@code matches} with {@code reply} (whatever the queue holds), for
     * calls whose order the test cannot know, such as those made off the request path.
     */
    public FakeLlmServer route(Predicate<Recorded> matches,
                               Function<Recorded, Reply> reply) {
        routes.add(new Route(matches, reply));
        return this;
    }

    /** Whether the request's body holds {@code text} anywhere (a system prompt, a message). */
    public static Predicate<Recorded> bodyContains(String text) {
        return recorded -> recorded.body() != null && recorded.body().contains(text);
    }

    /** Whether the last user message of an OpenAI-style request holds {@code text} (earlier turns' messages do not count). */
    public static Predicate<Recorded> lastUserMessageContains(String text) {
        return recorded -> {
            String last = null;
            for (JsonNode message : recorded.json() == null ? List.<JsonNode>of() : recorded.json().path("messages")) {
                if ("user".equals(message.path("role").asText())) {
                    last = message.path("content").toString();
                }
            }
            return last != null && last.contains(text);
        };
    }

    public List<Recorded> requests() {
        return List.copyOf(requests);
    }

    public Recorded last() {
        if (requests.isEmpty()) {
            throw new IllegalStateException("the fake LLM server received no request");
        }
        return requests.get(requests.size() - 1);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow(); // wakes replies sleeping in delayed() or stalled()
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] raw;
            try (InputStream in = exchange.getRequestBody()) {
                raw = in.readAllBytes();
            }
            String body = new String(raw, StandardCharsets.UTF_8);
            JsonNode json;
            try {
                json = body.isBlank() ? null : JSON.readTree(body);
            } catch (IOException e) {
                json = null;
            }
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
            String path = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            Recorded recorded = new Recorded(exchange.getRequestMethod(), path, Collections.unmodifiableMap(headers), body, json);
            requests.add(recorded);

            Reply reply = routes.stream().filter(r -> r.matches().test(recorded)).findFirst()
                    .map(r -> r.reply().apply(recorded)).orElseGet(replies::poll);
            if (reply == null) {
                reply = Reply.status(500, "{\"error\":{\"message\":\"no scripted reply for " + exchange.getRequestMethod()
                        + " " + path.replace("\"", "'") + "\",\"type\":\"fake_llm_server\"}}");
            }
            reply.write(exchange);
        } catch (BrokenConnection e) {
            // Escaping the handler makes the JDK server drop the connection mid-body.
            throw e;
        } catch (IOException e) {
            // The client went away (a test closed the stream or timed out): nothing to answer.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Thrown out of a handler on purpose: the JDK server then closes the connection. */
    static final class BrokenConnection extends RuntimeException {
        BrokenConnection() {
            super("connection broken on purpose by FakeLlmServer", null, false, false);
        }
    }

    /** One scripted answer. */
    @FunctionalInterface
    public interface Reply {

        void write(HttpExchange exchange) throws IOException, InterruptedException;

        /** A plain JSON answer with the given status, e.g. an error body. */
        static Reply status(int code, String jsonBody) {
            return exchange -> {
                byte[] bytes = jsonBody.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
                if (bytes.length > 0) {
                    exchange.getResponseBody().write(bytes);
                }
            };
        }

        /** Raw SSE frames as given (each a complete frame including its blank line), ending cleanly. */
        static Reply sse(String... rawFrames) {
            return exchange -> {
                OutputStream out = startStream(exchange);
                writeFrames(out, rawFrames);
                out.close();
            };
        }

        /**
         * Writes the frames, then breaks the connection: the response promised more bytes than it
         * sends, so the client sees the body cut short, not a clean end.
         */
        static Reply brokenAfter(String... rawSseFrames) {
            return exchange -> {
                byte[] all = String.join("", rawSseFrames).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, all.length + 1_000);
                OutputStream out = exchange.getResponseBody();
                writeFrames(out, rawSseFrames);
                // The promised bytes never come; the server then drops the connection.
                throw new BrokenConnection();
            };
        }

        /** Writes the frames, then sends nothing for {@code stall} before ending cleanly. */
        static Reply stalled(Duration stall, String... rawSseFrames) {
            return exchange -> {
                OutputStream out = startStream(exchange);
                writeFrames(out, rawSseFrames);
                Thread.sleep(stall.toMillis());
                out.close();
            };
        }

        /** Writes the frames with {@code gap} of silence before each one, then ends cleanly. */
        static Reply paced(Duration gap, String... rawSseFrames) {
            return exchange -> {
                OutputStream out = startStream(exchange);
                for (String frame : rawSseFrames) {
                    Thread.sleep(gap.toMillis());
                    writeFrames(out, frame);
                }
                out.close();
            };
        }

        /** Waits before answering at all (before the status line and headers). */
        static Reply delayed(Duration delay, Reply reply) {
            return exchange -> {
                Thread.sleep(delay.toMillis());
                reply.write(exchange);
            };
        }

        // --- OpenAI chat.completion.chunk streams ---

        static Reply openAiText(String... deltas) {
            return sse(OpenAi.textFrames(deltas));
        }

        static Reply openAiToolCall(String id, String name, String argumentsJson) {
            return sse(OpenAi.toolCallFrames(id, name, argumentsJson));
        }

        // --- Anthropic Messages streams ---

        static Reply anthropicText(String... deltas) {
            return sse(Anthropic.textFrames(deltas));
        }

        static Reply anthropicToolUse(String id, String name, String inputJson) {
            return sse(Anthropic.toolUseFrames(id, name, inputJson));
        }

        // --- Gemini streamGenerateContent?alt=sse streams ---

        static Reply geminiText(String... deltas) {
            return sse(Gemini.textFrames(deltas));
        }

        static Reply geminiFunctionCall(String name, String argsJson) {
            return sse(Gemini.functionCallFrames(name, argsJson));
        }

    }

    // ------------------------------------------------------------------------------------------
    private static OutputStream startStream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0); // chunked
        return exchange.getResponseBody();
    }

    private static void writeFrames(OutputStream out, String... frames) throws IOException {
        for (String frame : frames) {
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    /**
     * Text streamed the way a model writes it: the opening frames and the first chunk at once, then
     * one chunk every {@code gap}, then the closing frames. Remembers when each chunk went out and
     * how the stream ended, so a test can compare what a client saw with what the model wrote.
     */
    public static final class PacedText implements Reply {
        private final Duration gap;
        private final List<String> opening;
        private final List<String> chunks;
        private final List<String> closing;
        private final List<Long> sentNanos = new CopyOnWriteArrayList<>();
        private final CompletableFuture<Boolean> finished = new CompletableFuture<>();

        private PacedText(Duration gap, List<String> opening, List<String> chunks, List<String> closing) {
            this.gap = gap;
            this.opening = opening;
            this.chunks = chunks;
            this.closing = closing;
        }

        public static PacedText openAi(Duration gap, String... deltas) {
            List<String> chunks = Arrays.stream(deltas).map(OpenAi::textFrame).toList();
            return new PacedText(gap, List.of(OpenAi.roleFrame()), chunks,
                    List.of(OpenAi.finishFrame("stop"), OpenAi.usageFrame(12, deltas.length), OpenAi.DONE));
        }

        public static PacedText anthropic(Duration gap, String... deltas) {
            List<String> chunks = Arrays.stream(deltas).map(d -> Anthropic.textDelta(0, d)).toList();
            return new PacedText(gap, List.of(Anthropic.messageStart(25), Anthropic.textBlockStart(0), Anthropic.ping()),
                    chunks, List.of(Anthropic.blockStop(0), Anthropic.messageDelta("end_turn", 15), Anthropic.messageStop()));
        }

        public static PacedText gemini(Duration gap, String... deltas) {
            return new PacedText(gap, List.of(), List.of(Gemini.textFrames(deltas)), List.of());
        }

        /** System.nanoTime() at which each chunk was handed to the connection, in order. */
        public List<Long> sentNanos() {
            return sentNanos;
        }

        /** Completes with true once every frame went out, with false if the client left first. */
        public CompletableFuture<Boolean> finished() {
            return finished;
        }

        @Override
        public void write(HttpExchange exchange) throws IOException, InterruptedException {
            try {
                OutputStream out = startStream(exchange);
                writeFrames(out, opening.toArray(String[]::new));
                for (int i = 0; i < chunks.size(); i++) {
                    if (i > 0) {
                        Thread.sleep(gap.toMillis());
                    }
                    // The moment the model writes it: read before the write, so no reader can hold the
                    // chunk "before" it was sent (a clock read after the flush may come late on a busy machine).
                    sentNanos.add(System.nanoTime());
                    writeFrames(out, chunks.get(i));
                }
                writeFrames(out, closing.toArray(String[]::new));
                out.close();
                finished.complete(true);
            } catch (IOException e) {
                finished.complete(false);
                throw e;
            } finally {
                finished.complete(false);
            }
        }
    }

    // Frame builders, public so tests can compose partial streams for brokenAfter/stalled/sse.

    /** OpenAI frames: {@code data: {json}\n\n}, ending with {@code data: [DONE]\n\n}. */
    public static final class OpenAi {

        private OpenAi() {
        }

        public static String frame(JsonNode chunk) {
            return "data: " + chunk + "\n\n";
        }

        public static final String DONE = "data: [DONE]\n\n";

        /** A chat.completion.chunk with one choice carrying {@code delta} and {@code finishReason}. */
        public static ObjectNode chunk(ObjectNode delta, String finishReason) {
            ObjectNode chunk = base();
            ObjectNode choice = chunk.putArray("choices").addObject();
            choice.put("index", 0);
            choice.set("delta", delta);
            choice.putNull("logprobs");
            if (finishReason == null) {
                choice.putNull("finish_reason");
            } else {
                choice.put("finish_reason", finishReason);
            }
            chunk.putNull("usage");
            return chunk;
        }

        public static String roleFrame() {
            ObjectNode delta = JSON.createObjectNode().put("role", "assistant").put("content", "");
            delta.putNull("refusal");
            return frame(chunk(delta, null));
        }

        public static String textFrame(String text) {
            return frame(chunk(JSON.createObjectNode().put("content", text), null));
        }

        public static String finishFrame(String reason) {
            return frame(chunk(JSON.createObjectNode(), reason));
        }

        /** Usage with {@code cached} of the prompt's tokens read from the provider's cache. */
        public static String usageFrame(int prompt, int completion, int cached) {
            ObjectNode chunk = base();
            chunk.putArray("choices");
            chunk.putObject("usage").put("prompt_tokens", prompt).put("completion_tokens", completion)
                    .put("total_tokens", prompt + completion).putObject("prompt_tokens_details").put("cached_tokens", cached);
            return frame(chunk);
        }

        /** A text answer that reports this usage (or none, with {@code prompt} negative). */
        public static String[] textFrames(int prompt, int completion, int cached, String... deltas) {
            List<String> frames = new ArrayList<>();
            frames.add(roleFrame());
            for (String d : deltas) {
                frames.add(textFrame(d));
            }
            frames.add(finishFrame("stop"));
            if (prompt >= 0) {
                frames.add(usageFrame(prompt, completion, cached));
            }
            frames.add(DONE);
            return frames.toArray(String[]::new);
        }

        public static String usageFrame(int prompt, int completion) {
            ObjectNode chunk = base();
            chunk.putArray("choices");
            chunk.putObject("usage").put("prompt_tokens", prompt).put("completion_tokens", completion)
                    .put("total_tokens", prompt + completion);
            return frame(chunk);
        }

        public static String[] textFrames(String... deltas) {
            List<String> frames = new ArrayList<>();
            frames.add(roleFrame());
            for (String d : deltas) {
                frames.add(textFrame(d));
            }
            frames.add(finishFrame("stop"));
            frames.add(usageFrame(12, deltas.length));
            frames.add(DONE);
            return frames.toArray(String[]::new);
        }

        public static String[] toolCallFrames(String id, String name, String argumentsJson) {
            List<String> frames = new ArrayList<>();
            ObjectNode first = JSON.createObjectNode().put("role", "assistant");
            first.putNull("content");
            ObjectNode call = first.putArray("tool_calls").addObject();
            call.put("index", 0).put("id", id).put("type", "function");
            call.putObject("function").put("name", name).put("arguments", "");
            frames.add(frame(chunk(first, null)));
            for (String piece : split(argumentsJson)) {
                ObjectNode delta = JSON.createObjectNode();
                ObjectNode fragment = delta.putArray("tool_calls").addObject().put("index", 0);
                fragment.putObject("function").put("arguments", piece);
                frames.add(frame(chunk(delta, null)));
            }
            frames.add(finishFrame("tool_calls"));
            frames.add(usageFrame(20, 9));
            frames.add(DONE);
            return frames.toArray(String[]::new);
        }

        private static ObjectNode base() {
            ObjectNode chunk = JSON.createObjectNode();
            chunk.put("id", "chatcmpl-fake").put("object", "chat.completion.chunk").put("created", 1_700_000_000L)
                    .put("model", "gpt-fake");
            chunk.putNull("system_fingerprint");
            return chunk;
        }
    }

    /** Anthropic frames: {@code event: <type>\ndata: {json}\n\n}. */
    public static final class Anthropic {

        private Anthropic() {
        }

        public static String frame(JsonNode data) {
            return "event: " + data.path("type").asText() + "\ndata: " + data + "\n\n";
        }

        public static String messageStart(int inputTokens) {
            ObjectNode data = JSON.createObjectNode().put("type", "message_start");
            ObjectNode message = data.putObject("message");
            message.put("id", "msg_fake").put("type", "message").put("role", "assistant").put("model", "claude-fake");
            message.putArray("content");
            message.putNull("stop_reason");
            message.putNull("stop_sequence");
            message.putObject("usage").put("input_tokens", inputTokens).put("output_tokens", 1);
            return frame(data);
        }

        public static String ping() {
            return "event: ping\ndata: {\"type\": \"ping\"}\n\n";
        }

        public static String textBlockStart(int index) {
            ObjectNode data = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
            data.putObject("content_block").put("type", "text").put("text", "");
            return frame(data);
        }

        public static String toolUseBlockStart(int index, String id, String name) {
            ObjectNode data = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
            ObjectNode block = data.putObject("content_block").put("type", "tool_use").put("id", id).put("name", name);
            block.putObject("input");
            return frame(data);
        }

        public static String textDelta(int index, String text) {
            ObjectNode data = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
            data.putObject("delta").put("type", "text_delta").put("text", text);
            return frame(data);
        }

        public static String inputJsonDelta(int index, String partialJson) {
            ObjectNode data = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
            data.putObject("delta").put("type", "input_json_delta").put("partial_json", partialJson);
            return frame(data);
        }

        public static String blockStop(int index) {
            return frame(JSON.createObjectNode().put("type", "content_block_stop").put("index", index));
        }

        public static String messageDelta(String stopReason, int outputTokens) {
            ObjectNode data = JSON.createObjectNode().put("type", "message_delta");
            data.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
            data.putObject("usage").put("output_tokens", outputTokens);
            return frame(data);
        }

        public static String messageStop() {
            return frame(JSON.createObjectNode().put("type", "message_stop"));
        }

        public static String error(String type, String message) {
            ObjectNode data = JSON.createObjectNode().put("type", "error");
            data.putObject("error").put("type", type).put("message", message);
            return frame(data);
        }

        public static String[] textFrames(String... deltas) {
            List<String> frames = new ArrayList<>();
            frames.add(messageStart(25));
            frames.add(textBlockStart(0));
            frames.add(ping());
            for (String d : deltas) {
                frames.add(textDelta(0, d));
            }
            frames.add(blockStop(0));
            frames.add(messageDelta("end_turn", 15));
            frames.add(messageStop());
            return frames.toArray(String[]::new);
        }

        public static String[] toolUseFrames(String id, String name, String inputJson) {
            List<String> frames = new ArrayList<>();
            frames.add(messageStart(40));
            frames.add(toolUseBlockStart(0, id, name));
            frames.add(inputJsonDelta(0, "")); // Anthropic opens with an empty fragment
            for (String piece : split(inputJson)) {
                frames.add(inputJsonDelta(0, piece));
            }
            frames.add(blockStop(0));
            frames.add(messageDelta("tool_use", 30));
            frames.add(messageStop());
            return frames.toArray(String[]::new);
        }
    }

    /**
     * Gemini alt=sse frames: {@code data: {json}} ended by a blank line. Google's servers end lines
     * with CRLF, so these do too.
     */
    public static final class Gemini {

        private Gemini() {
        }

        public static String frame(JsonNode chunk) {
            return "data: " + chunk + "\r\n\r\n";
        }

        public static ObjectNode chunk(ArrayNode parts, String finishReason, int promptTokens, int candidateTokens) {
            ObjectNode chunk = JSON.createObjectNode();
            ObjectNode candidate = chunk.putArray("candidates").addObject();
            ObjectNode content = candidate.putObject("content");
            content.set("parts", parts);
            content.put("role", "model");
            if (finishReason != null) {
                candidate.put("finishReason", finishReason);
            }
            candidate.put("index", 0);
            ObjectNode usage = chunk.putObject("usageMetadata").put("promptTokenCount", promptTokens);
            if (candidateTokens > 0) {
                usage.put("candidatesTokenCount", candidateTokens);
            }
            usage.put("totalTokenCount", promptTokens + candidateTokens);
            chunk.put("modelVersion", "gemini-fake");
            return chunk;
        }

        public static String textFrame(String text, String finishReason, int candidateTokens) {
            ArrayNode parts = JSON.createArrayNode();
            parts.addObject().put("text", text);
            return frame(chunk(parts, finishReason, 8, candidateTokens));
        }

        public static String[] textFrames(String... deltas) {
            List<String> frames = new ArrayList<>();
            for (int i = 0; i < deltas.length; i++) {
                boolean last = i == deltas.length - 1;
                frames.add(textFrame(deltas[i], last ? "STOP" : null, last ? deltas.length : 0));
            }
            return frames.toArray(String[]::new);
        }

        public static String[] functionCallFrames(String name, String argsJson) {
            ArrayNode parts = JSON.createArrayNode();
            ObjectNode call = parts.addObject().putObject("functionCall");
            call.put("name", name);
            try {
                call.set("args", JSON.readTree(argsJson));
            } catch (IOException e) {
                throw new IllegalArgumentException("args must be JSON: " + argsJson, e);
            }
            return new String[] {frame(chunk(parts, "STOP", 8, 5))};
        }
    }

    /** Splits a text into 2–4 pieces so that a client has to join fragments. */
    static List<String> split(String text) {
        if (text.length() < 2) {
            return List.of(text);
        }
        int pieces = Math.min(4, text.length());
        int size = (text.length() + pieces - 1) / pieces;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.length(); i += size) {
            out.add(text.substring(i, Math.min(text.length(), i + size)));
        }
        return out;
    }

}
