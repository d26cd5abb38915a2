package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every provider owes the agent, whatever its wire format. Each provider's test
 * class extends this one and says how its replies look; the wire-format details are tested there.
 */
@Timeout(20)
abstract class ProviderContractTest {

    static final String KEY = "sk-test-SECRET";

    FakeLlmServer server;

    @BeforeEach
    void startServer() {
        server = FakeLlmServer.start();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    abstract String id();

    abstract Provider provider(ProviderSettings settings);

    abstract Reply textReply(String... deltas);

    abstract Reply toolCallReply(String id, String name, String argumentsJson);

    /** Frames carrying the text "Hel" but not the provider's terminal marker. */
    abstract String[] framesWithoutEnd();

    /** An error body in the provider's own shape. */
    String errorBody(String message) {
        return "{\"error\":{\"message\":\"" + message + "\",\"type\":\"invalid_request_error\"}}";
    }

    /** The id the provider reports for a tool call that was sent with {@code id}. */
    String expectedCallId(String sentId, String name) {
        return sentId;
    }

    // --- helpers ---

    Provider provider() {
        return provider(settings(server.baseUrl(), Duration.ofSeconds(5)));
    }

    ProviderSettings settings(String baseUrl, Duration readTimeout) {
        return new ProviderSettings(id(), baseUrl, KEY, Duration.ofSeconds(2), readTimeout);
    }

    static ChatRequest hello() {
        return new ChatRequest("test-model", List.of(ChatMessage.user("Say hello")), List.of(), null, null);
    }

    /** A conversation with every role, a declared tool, a call and its result. */
    static ChatRequest toolConversation() {
        ToolDeclaration weather = new ToolDeclaration("get_weather", "Current weather in a city",
                Map.of("type", "object", "properties", Map.of("city", Map.of("type", "string")),
                        "required", List.of("city")));
        return new ChatRequest("test-model", List.of(
                ChatMessage.system("You are terse."),
                ChatMessage.user("Weather in Paris?"),
                ChatMessage.assistant("Let me check.",
                        List.of(new ChatMessage.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"))),
                ChatMessage.tool("call_1", "get_weather", "{\"temp\":21}")),
                List.of(weather), 0.2, 256);
    }

    static List<StreamEvent> drain(Provider provider, ChatRequest request) {
        List<StreamEvent> events = new ArrayList<>();
        try (Provider.OpenStream stream = provider.open(request)) {
            stream.drain(events::add);
        }
        return events;
    }

    static void assertEndsWithExactlyOneTerminal(List<StreamEvent> events) {
        assertFalse(events.isEmpty(), "no events");
        long terminals = events.stream()
                .filter(e -> e instanceof StreamEvent.Done || e instanceof StreamEvent.Error).count();
        assertEquals(1, terminals, "exactly one Done or Error: " + events);
        StreamEvent last = events.get(events.size() - 1);
        assertTrue(last instanceof StreamEvent.Done || last instanceof StreamEvent.Error, "ends with it: " + events);
    }

    static ProviderException errorOf(List<StreamEvent> events) {
        assertEndsWithExactlyOneTerminal(events);
        return assertInstanceOf(StreamEvent.Error.class, events.get(events.size() - 1), events.toString()).error();
    }

    static List<String> texts(List<StreamEvent> events) {
        return events.stream().filter(StreamEvent.TextDelta.class::isInstance)
                .map(e -> ((StreamEvent.TextDelta) e).text()).toList();
    }

    /** Neither the message nor any cause's message may contain the key. */
    static void assertKeyAbsent(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()) + " " + t;
            assertFalse(message.contains(KEY), "key leaked into: " + message);
            assertFalse(message.contains("SECRET"), "part of the key leaked into: " + message);
        }
    }

    ProviderException openFails(Reply reply) {
        server.enqueue(reply);
        ProviderException e = assertThrows(ProviderException.class, () -> provider().open(hello()));
        assertEquals(id(), e.provider());
        assertKeyAbsent(e);
        return e;
    }

    // --- the contract ---

    @Test
    void textStreamingYieldsDeltasInOrderThenDone() {
        server.enqueue(textReply("Hel", "lo, ", "world"));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(List.of("Hel", "lo, ", "world"), texts(events));
        assertEndsWithExactlyOneTerminal(events);
        assertInstanceOf(StreamEvent.Done.class, events.get(events.size() - 1));
        assertTrue(events.stream().anyMatch(StreamEvent.Usage.class::isInstance), "usage reported: " + events);
    }

    @Test
    void toolCallArgumentsArriveAsOneCompleteCall() {
        String args = "{\"city\":\"Paris\",\"unit\":\"celsius\"}";
        server.enqueue(toolCallReply("call_42", "get_weather", args));

        List<StreamEvent> events = drain(provider(), hello());

        List<StreamEvent.ToolCallEvent> calls = events.stream().filter(StreamEvent.ToolCallEvent.class::isInstance)
                .map(StreamEvent.ToolCallEvent.class::cast).toList();
        assertEquals(List.of(new StreamEvent.ToolCallEvent(expectedCallId("call_42", "get_weather"), "get_weather",
                args)), calls);
        assertInstanceOf(StreamEvent.Done.class, events.get(events.size() - 1));
    }

    @Test
    void rejectedKeyIsAnAuthenticationErrorNamingProviderAndConfigKeyButNotTheKey() {
        ProviderException e = openFails(Reply.status(401, errorBody("Incorrect API key provided: " + KEY)));

        assertEquals(ProviderException.Kind.AUTHENTICATION, e.kind());
        assertFalse(e.retryable());
        assertTrue(e.getMessage().startsWith(id() + " rejected the API key (HTTP 401)"), e.getMessage());
        assertTrue(e.getMessage().contains("lango.providers." + id() + ".api-key"), e.getMessage());
    }

    @Test
    void forbiddenIsAnAuthenticationErrorToo() {
        ProviderException e = openFails(Reply.status(403, errorBody("permission denied")));

        assertEquals(ProviderException.Kind.AUTHENTICATION, e.kind());
        assertTrue(e.getMessage().contains("HTTP 403"), e.getMessage());
    }

    @Test
    void rateLimitIsRetryable() {
        ProviderException e = openFails(Reply.status(429, errorBody("Rate limit reached")));

        assertEquals(ProviderException.Kind.RATE_LIMITED, e.kind());
        assertTrue(e.retryable());
    }

    @Test
    void serverErrorIsRetryable() {
        ProviderException e = openFails(Reply.status(500, errorBody("The server had an error")));

        assertEquals(ProviderException.Kind.SERVER_ERROR, e.kind());
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("The server had an error"), e.getMessage());
    }

    @Test
    void badRequestCarriesTheProvidersMessage() {
        ProviderException e = openFails(Reply.status(400, errorBody("model 'nope' does not exist")));

        assertEquals(ProviderException.Kind.BAD_REQUEST, e.kind());
        assertFalse(e.retryable());
        assertTrue(e.getMessage().contains("HTTP 400"), e.getMessage());
        assertTrue(e.getMessage().contains("model 'nope' does not exist"), e.getMessage());
    }

    @Test
    void badRequestExcerptIsShortAndFreeOfTheKey() {
        String longMessage = "invalid value " + KEY + " " + "x".repeat(2000);
        ProviderException e = openFails(Reply.status(422, errorBody(longMessage)));

        assertEquals(ProviderException.Kind.BAD_REQUEST, e.kind());
        String excerpt = e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
        assertTrue(excerpt.length() <= HttpTransport.EXCERPT_LIMIT, "excerpt of " + excerpt.length() + " chars");
    }

    @Test
    void brokenConnectionEndsWithBrokenStreamAndNoDone() {
        server.enqueue(Reply.brokenAfter(framesWithoutEnd()));

        List<StreamEvent> events = drain(provider(), hello());

        ProviderException e = errorOf(events);
        assertEquals(ProviderException.Kind.BROKEN_STREAM, e.kind());
        assertTrue(e.getMessage().contains("broke"), "the connection broke, the body did not just end: " + e);
        assertFalse(events.stream().anyMatch(StreamEvent.Done.class::isInstance), events.toString());
        assertKeyAbsent(e);
    }

    @Test
    void streamEndingWithoutTerminalMarkerIsBrokenNotDone() {
        server.enqueue(Reply.sse(framesWithoutEnd()));

        List<StreamEvent> events = drain(provider(), hello());

        assertEquals(ProviderException.Kind.BROKEN_STREAM, errorOf(events).kind());
        assertFalse(events.stream().anyMatch(StreamEvent.Done.class::isInstance), events.toString());
    }

    @Test
    void providerFallingSilentWhileStreamingEndsWithTimeout() {
        server.enqueue(Reply.stalled(Duration.ofSeconds(3), framesWithoutEnd()));
        Provider provider = provider(settings(server.baseUrl(), Duration.ofMillis(300)));

        long start = System.nanoTime();
        List<StreamEvent> events = drain(provider, hello());
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertEquals(List.of("Hel"), texts(events));
        ProviderException e = errorOf(events);
        assertEquals(ProviderException.Kind.TIMEOUT, e.kind());
        assertTrue(elapsedMs < 2500, "gave up after the read timeout, not the stall: " + elapsedMs + " ms");
    }

    @Test
    void aTurnStoppedBeforeTheProviderAnswersEndsItsWaitAtOnce() throws Exception {
        server.enqueue(Reply.delayed(Duration.ofSeconds(10), textReply("late")));
        Provider provider = provider(settings(server.baseUrl(), Duration.ofSeconds(30)));
        ai.lango.turn.TurnAbort turn = new ai.lango.turn.TurnAbort();
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor().schedule(turn::abort, 300,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        ProviderException e = assertThrows(ProviderException.class,
                () -> provider.open(hello().forTurn(ai.lango.masking.Audience.NOBODY, turn)));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("was stopped with its turn"), e.getMessage());
        assertFalse(e.retryable(), "a stopped call is not tried again");
        assertTrue(elapsedMs < 2_000, "ended when the turn stopped, not when the headers came: " + elapsedMs + " ms");
    }

    /** Frames of a complete text answer, for replies that pace them. */
    abstract String[] completeTextFrames(String... deltas);

    @Test
    void answerLastingLongerThanTheReadTimeoutIsFineWhileDataKeepsComing() {
        String[] frames = completeTextFrames("a", "b", "c", "d");
        server.enqueue(Reply.paced(Duration.ofMillis(150), frames));
        Provider provider = provider(settings(server.baseUrl(), Duration.ofMillis(400)));

        long start = System.nanoTime();
        List<StreamEvent> events = drain(provider, hello());
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertTrue(elapsedMs > 400, "the whole answer took longer than the read timeout: " + elapsedMs + " ms");
        assertEquals(List.of("a", "b", "c", "d"), texts(events));
        assertInstanceOf(StreamEvent.Done.class, events.get(events.size() - 1), events.toString());
    }

    @Test
    void closingFromAnotherThreadAbandonsTheAnswerPromptly() throws Exception {
        server.enqueue(Reply.stalled(Duration.ofSeconds(5), framesWithoutEnd()));
        Provider.OpenStream stream = provider(settings(server.baseUrl(), Duration.ofSeconds(10))).open(hello());
        List<StreamEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> stream.drain(events::add));
        reader.start();

        Thread.sleep(300);
        stream.close();
        reader.join(2000);

        assertFalse(reader.isAlive(), "drain returned soon after close()");
        assertEquals(ProviderException.Kind.BROKEN_STREAM, errorOf(events).kind());
    }

    @Test
    void providerNotAnsweringAtAllTimesOutInOpen() {
        server.enqueue(Reply.delayed(Duration.ofSeconds(3), textReply("late")));
        Provider provider = provider(settings(server.baseUrl(), Duration.ofMillis(300)));

        ProviderException e = assertThrows(ProviderException.class, () -> provider.open(hello()));

        assertEquals(ProviderException.Kind.TIMEOUT, e.kind());
        assertTrue(e.retryable());
        assertKeyAbsent(e);
    }

    @Test
    void refusedConnectionIsAConnectionError() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // free now, and nobody listens once closed
        }
        Provider provider = provider(settings("http://127.0.0.1:" + port, Duration.ofSeconds(2)));

        ProviderException e = assertThrows(ProviderException.class, () -> provider.open(hello()));

        assertEquals(ProviderException.Kind.CONNECTION, e.kind());
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        assertKeyAbsent(e);
    }

    @Test
    void noScriptedReplyIsAClearServerError() {
        ProviderException e = assertThrows(ProviderException.class, () -> provider().open(hello()));

        assertEquals(ProviderException.Kind.SERVER_ERROR, e.kind());
        assertTrue(e.getMessage().contains("no scripted reply"), e.getMessage());
    }

    @Test
    void providerIdIsTheConfiguredOne() {
        assertEquals(id(), provider().id());
    }
}
