package ai.lango.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.a2a.FakeAgentServer.Answer;
import ai.lango.net.jsonrpc.JsonRpc;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class A2aClientTest {

    private static final String CARD_PATH = "/.well-known/agent.json";

    private FakeAgentServer remote;
    private final A2aClient client = new A2aClient(Duration.ofSeconds(5));

    @BeforeEach
    void start() throws Exception {
        remote = new FakeAgentServer();
    }

    @AfterEach
    void stop() {
        remote.close();
    }

    private String card(String url) {
        return """
                {"name":"helper","description":"Helps with things","url":"%s","version":"1.2.0",
                 "protocolVersion":"0.3.0","preferredTransport":"JSONRPC","provider":{"organization":"X","url":"https://x"},
                 "capabilities":{"streaming":false,"extensions":[]},"defaultInputModes":["text"],"defaultOutputModes":["text"],
                 "skills":[{"id":"translate","name":"Translate","description":"Translates text","tags":["language"],
                            "examples":["hello in French"]}],
                 "iconUrl":"https://x/icon.png","supportsAuthenticatedExtendedCard":false}
                """.formatted(url);
    }

    private AgentCard helper() throws A2aException {
        remote.on(CARD_PATH, Answer.json(card(remote.uri("/rpc").toString())));
        return client.fetchCard(remote.uri(CARD_PATH));
    }

    private static String messageResult(String text) {
        return """
                {"jsonrpc":"2.0","id":"1","result":{"kind":"message","role":"agent","messageId":"m1","contextId":"ctx",
                 "parts":[{"kind":"text","text":"%s"}]}}""".formatted(text);
    }

    private static String taskResult(String state, String statusText, String artifactText) {
        String status = statusText == null ? "{\"state\":\"" + state + "\"}"
                : "{\"state\":\"" + state + "\",\"message\":{\"kind\":\"message\",\"role\":\"agent\",\"messageId\":\"s\","
                        + "\"parts\":[{\"kind\":\"text\",\"text\":\"" + statusText + "\"}]},\"timestamp\":\"2025-01-01T00:00:00Z\"}";
        String artifacts = artifactText == null ? "[]"
                : "[{\"artifactId\":\"a1\",\"name\":\"answer\",\"parts\":[{\"kind\":\"text\",\"text\":\"" + artifactText + "\"}]}]";
        return "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"kind\":\"task\",\"id\":\"task-1\",\"contextId\":\"ctx\","
                + "\"status\":" + status + ",\"artifacts\":" + artifacts + "}}";
    }

    private String error(Executable call) {
        return assertThrows(A2aException.class, call::run).getMessage();
    }

    @FunctionalInterface
    private interface Executable {
        void run() throws Exception;
    }

    @Test
    void fetchCardReadsNameDescriptionUrlAndSkillsIgnoringFieldsItDoesNotUse() throws Exception {
        AgentCard card = helper();
        assertEquals("helper", card.name());
        assertEquals("Helps with things", card.description());
        assertEquals(remote.uri("/rpc").toString(), card.jsonRpcUrl().orElseThrow());
        assertEquals(A2aVersion.V0_3, card.preferred().orElseThrow());
        assertEquals(List.of(new AgentCard.Skill("translate", "Translate", "Translates text", List.of("language"))),
                card.skills());
        assertEquals("GET", remote.requests().get(0).method());
    }

    @Test
    void fetchCardMakesARelativeUrlAbsoluteAgainstTheCardUrl() throws Exception {
        remote.on(CARD_PATH, Answer.json(card("/a2a/rpc")));
        assertEquals(remote.uri("/a2a/rpc").toString(), client.fetchCard(remote.uri(CARD_PATH)).jsonRpcUrl().orElseThrow());
    }

    @Test
    void fetchCardTakesTheJsonRpcInterfaceWhenAnotherTransportIsPreferred() throws Exception {
        remote.on(CARD_PATH, Answer.json("""
                {"name":"multi","description":"d","url":"grpc://host:50051","version":"1","preferredTransport":"GRPC",
                 "additionalInterfaces":[{"transport":"GRPC","url":"grpc://host:50051"},
                                         {"transport":"JSONRPC","url":"http://host:8080/rpc"}],"skills":[]}"""));
        AgentCard card = client.fetchCard(remote.uri(CARD_PATH));
        assertEquals("http://host:8080/rpc", card.jsonRpcUrl().orElseThrow());
    }

    @Test
    void fetchCardRefusesACardWithoutJsonRpc() {
        remote.on(CARD_PATH, Answer.json("""
                {"name":"grpc-only","description":"d","url":"grpc://host:50051","preferredTransport":"GRPC"}"""));
        String message = error(() -> client.fetchCard(remote.uri(CARD_PATH)));
        assertTrue(message.contains("\"grpc-only\") offers no JSON-RPC endpoint in A2A 1.0 or 0.3"), message);
    }

    @Test
    void fetchCardNamesTheUrlAndStatusWhenTheCardIsMissing() {
        URI url = remote.uri("/nothing/here.json");
        assertEquals("cannot fetch the A2A agent card at " + url + ": HTTP 404: no route",
                error(() -> client.fetchCard(url)));
    }

    @Test
    void fetchCardNamesTheUrlWhenNothingListens() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        URI url = URI.create("http://127.0.0.1:" + port + CARD_PATH);
        String message = error(() -> client.fetchCard(url));
        assertTrue(message.startsWith("cannot fetch the A2A agent card at " + url + ": "), message);
        assertTrue(message.contains("connection refused"), message);
    }

    @Test
    void fetchCardNamesTheUrlWhenTheHostIsUnknown() {
        URI url = URI.create("http://no-such-host.invalid/.well-known/agent.json");
        String message = error(() -> client.fetchCard(url));
        assertTrue(message.startsWith("cannot fetch the A2A agent card at " + url + ": "), message);
    }

    @Test
    void fetchCardRefusesSomethingThatIsNotACard() {
        remote.on(CARD_PATH, Answer.json("<html>hello</html>"));
        String message = error(() -> client.fetchCard(remote.uri(CARD_PATH)));
        assertTrue(message.startsWith("the A2A agent card at " + remote.uri(CARD_PATH) + " is not a valid agent card"), message);

        remote.on(CARD_PATH, Answer.json("{\"description\":\"nameless\",\"url\":\"http://h/rpc\"}"));
        assertEquals("the A2A agent card at " + remote.uri(CARD_PATH) + " is not a usable agent card: it has no name",
                error(() -> client.fetchCard(remote.uri(CARD_PATH))));
    }

    @Test
    void fetchCardRefusesOtherSchemes() {
        assertTrue(error(() -> client.fetchCard(URI.create("file:///etc/passwd"))).contains("only http:// and https://"));
    }

    @Test
    void fetchCardGivesUpAfterTheTimeoutNamingIt() {
        remote.on(CARD_PATH, Answer.json(card("http://h/rpc")).delayed(2000));
        A2aClient impatient = new A2aClient(Duration.ofMillis(300));
        String message = error(() -> impatient.fetchCard(remote.uri(CARD_PATH)));
        assertTrue(message.startsWith("cannot fetch the A2A agent card at " + remote.uri(CARD_PATH)), message);
        assertTrue(message.endsWith("no answer within 300 ms"), message);
    }

    @Test
    void sendPostsAJsonRpcMessageSendAndReturnsTheMessageText() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(messageResult("Bonjour")));

        assertEquals("Bonjour", client.send(card, "ctx-42", "Say hello in French"));

        FakeAgentServer.Recorded sent = remote.requests().get(remote.requests().size() - 1);
        assertEquals("POST", sent.method());
        assertEquals("application/json", sent.contentType());
        JsonNode request = sent.json();
        assertEquals("2.0", request.get("jsonrpc").asText());
        assertEquals("message/send", request.get("method").asText());
        assertFalse(request.get("id").asText().isBlank());
        JsonNode message = request.at("/params/message");
        assertEquals("user", message.get("role").asText());
        assertEquals("message", message.get("kind").asText());
        assertEquals("ctx-42", message.get("contextId").asText());
        assertFalse(message.get("messageId").asText().isBlank());
        assertFalse(message.has("taskId"));
        assertEquals("[{\"kind\":\"text\",\"text\":\"Say hello in French\"}]", message.get("parts").toString());
        assertTrue(request.at("/params/configuration/blocking").asBoolean());
    }

    @Test
    void sendWithoutAContextLeavesItToTheRemoteAgent() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(messageResult("ok")));
        client.send(card, null, "hi");
        assertFalse(remote.requests().get(1).json().at("/params/message").has("contextId"));
    }

    @Test
    void sendReturnsTheArtifactTextOfACompletedTask() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(taskResult("completed", "Done.", "The answer is 42")));
        assertEquals("The answer is 42", client.send(card, "ctx", "question"));
    }

    @Test
    void sendFallsBackToTheStatusMessageOfATaskWithoutArtifacts() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(taskResult("input-required", "Which city?", null)));
        assertEquals("Which city?", client.send(card, "ctx", "weather please"));
    }

    @Test
    void sendAsksAfterARunningTaskUntilItCompletes() throws Exception {
        AgentCard card = helper();
        AtomicInteger polls = new AtomicInteger();
        remote.on("/rpc", request -> {
            String method = request.json().get("method").asText();
            if (method.equals("message/send")) {
                return Answer.json(taskResult("working", null, null));
            }
            assertEquals("tasks/get", method);
            assertEquals("task-1", request.json().at("/params/id").asText());
            return Answer.json(polls.incrementAndGet() < 2 ? taskResult("working", null, null)
                    : taskResult("completed", null, "finally"));
        });
        assertEquals("finally", client.send(card, "ctx", "slow job"));
        assertEquals(2, polls.get());
    }

    @Test
    void sendFailsWithTheReasonOfAFailedTask() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(taskResult("failed", "the database is down", null)));
        assertEquals("remote agent \"helper\": the task failed: the database is down",
                error(() -> client.send(card, "ctx", "query")));
    }

    @Test
    void sendFailsNamingTheAgentAndTheJsonRpcError() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"error\":{\"code\":-32602,\"message\":\"bad params\"}}"));
        A2aException e = assertThrows(A2aException.class, () -> client.send(card, "ctx", "x"));
        assertEquals("remote agent \"helper\" failed: bad params (JSON-RPC error -32602)", e.getMessage());
        assertEquals(JsonRpc.INVALID_PARAMS, e.code());
    }

    @Test
    void sendFailsNamingTheAgentAndTheHttpStatus() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.status(502, "text/html", "<h1>Bad   Gateway</h1>\n"));
        assertEquals("remote agent \"helper\" (" + card.jsonRpcUrl().orElseThrow() + ") answered HTTP 502: <h1>Bad Gateway</h1>",
                error(() -> client.send(card, "ctx", "x")));
    }

    @Test
    void sendReadsAJsonRpcErrorEvenWithAnErrorStatus() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.status(401, "application/json",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32001,\"message\":\"unauthorized\"}}"));
        assertEquals("remote agent \"helper\" failed: unauthorized (JSON-RPC error -32001, HTTP 401)",
                error(() -> client.send(card, "ctx", "x")));
    }

    @Test
    void sendRefusesAnAnswerThatIsNeitherMessageNorTask() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{\"kind\":\"status-update\"}}"));
        assertTrue(error(() -> client.send(card, "ctx", "x")).startsWith("remote agent \"helper\" answered neither a message nor a task"));
        remote.on("/rpc", Answer.json("not json"));
        assertEquals("remote agent \"helper\" answered with something that is not JSON-RPC: not json",
                error(() -> client.send(card, "ctx", "x")));
    }

    @Test
    void sendRefusesAnAnswerLargerThanTheLimit() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(messageResult("x".repeat(A2aClient.MAX_BODY_BYTES))));
        String message = error(() -> client.send(card, "ctx", "x"));
        assertTrue(message.endsWith("the answer is larger than 8 MiB"), message);
    }

    @Test
    void sendGivesUpAfterTheTimeout() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", Answer.json(messageResult("late")).delayed(2000));
        A2aClient impatient = new A2aClient(Duration.ofMillis(400));
        String message = error(() -> impatient.send(card, "ctx", "x"));
        assertEquals("remote agent \"helper\" (" + card.jsonRpcUrl().orElseThrow() + "): no answer within 400 ms", message);
    }

    @Test
    void aCardWithBothVersionsIsSpokenToIn1_0() throws Exception {
        remote.on(CARD_PATH, Answer.json("""
                {"name":"both","description":"d","version":"1",
                 "supportedInterfaces":[{"url":"/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                                        {"url":"/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"}],
                 "url":"/v03","preferredTransport":"JSONRPC","protocolVersion":"0.3.0","capabilities":{"streaming":false}}"""));
        AgentCard card = client.fetchCard(remote.uri(CARD_PATH));
        assertEquals(A2aVersion.V1_0, card.preferred().orElseThrow());
        remote.on("/v1", Answer.json("""
                {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"ctx","status":{"state":"TASK_STATE_COMPLETED"},
                 "artifacts":[{"artifactId":"a","parts":[{"text":"Hallo"}]}]}}}"""));

        assertEquals("Hallo", client.send(card, "ctx", "Say hello in German"));

        FakeAgentServer.Recorded sent = remote.requests().get(remote.requests().size() - 1);
        assertEquals("/v1", sent.path());
        assertEquals("1.0", sent.version());
        JsonNode request = sent.json();
        assertEquals("SendMessage", request.get("method").asText());
        assertEquals("ROLE_USER", request.at("/params/message/role").asText());
        assertEquals("[{\"text\":\"Say hello in German\"}]", request.at("/params/message/parts").toString());
        assertFalse(request.at("/params/message").has("kind"));
    }

    @Test
    void aStreamingAgentsChunksArriveAsItWritesThem() throws Exception {
        remote.on(CARD_PATH, Answer.json("""
                {"name":"streamer","description":"d","version":"1","capabilities":{"streaming":true},
                 "supportedInterfaces":[{"url":"/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}"""));
        AgentCard card = client.fetchCard(remote.uri(CARD_PATH));
        String events = String.join("", List.of(
                "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n",
                "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"Hel\"}]}}}}\n\n",
                "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"lo\"}]},\"append\":true}}}\n\n",
                "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n"));
        remote.on("/v1", Answer.status(200, "text/event-stream", events));
        List<String> chunks = new java.util.concurrent.CopyOnWriteArrayList<>();

        A2aClient.Reply reply = client.send(card, A2aClient.Request.of("c", "greet"), chunks::add);

        assertEquals(List.of("Hel", "lo"), chunks);
        assertEquals("Hello", reply.text());
        assertEquals("SendStreamingMessage", remote.requests().get(remote.requests().size() - 1).json().get("method").asText());
    }

    /**
     * A streaming agent that stops writing after its first event — or only keeps the connection alive — is not waited
     * for past the client's timeout: the sub-agent's turn would hang on it.
     */
    @Test
    void aStreamThatGoesSilentEndsAtTheTimeout() throws Exception {
        for (String keepAlive : List.of("", ": waiting\n\n")) {
            com.sun.net.httpserver.HttpServer silent = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            silent.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
            silent.createContext("/v1", exchange -> {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                try (java.io.OutputStream out = exchange.getResponseBody()) {
                    out.write(("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c\","
                            + "\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    out.flush();
                    for (int i = 0; i < 100; i++) {
                        Thread.sleep(100);
                        out.write(keepAlive.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        out.flush();
                    }
                } catch (java.io.IOException | InterruptedException gone) {
                    // the client left
                }
            });
            silent.start();
            try {
                remote.on(CARD_PATH, Answer.json("""
                        {"name":"quiet","description":"d","version":"1","capabilities":{"streaming":true},
                         "supportedInterfaces":[{"url":"http://127.0.0.1:%d/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}"""
                        .formatted(silent.getAddress().getPort())));
                A2aClient impatient = new A2aClient(Duration.ofMillis(600));
                AgentCard card = impatient.fetchCard(remote.uri(CARD_PATH));
                String message = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(8),
                        () -> error(() -> impatient.send(card, A2aClient.Request.of("c", "x"), chunk -> { })));
                assertTrue(message.contains("the task did not finish within 600 ms"), "keep-alive \"" + keepAlive + "\": " + message);
            } finally {
                silent.stop(0);
            }
        }
    }

    @Test
    void aTaskThatAsksIsAQuestionAndItsAnswerGoesOnTheSameTask() throws Exception {
        AgentCard card = helper();
        remote.on("/rpc", request -> request.json().at("/params/message/taskId").isMissingNode()
                ? Answer.json("""
                        {"jsonrpc":"2.0","id":"1","result":{"kind":"task","id":"task-9","contextId":"ctx",
                         "status":{"state":"input-required","message":{"kind":"message","role":"agent","messageId":"q",
                         "parts":[{"kind":"text","text":"Run exec ls?"},{"kind":"data","data":{"approvalId":"ap-1"}}]}}}}""")
                : Answer.json(taskResult("completed", null, "listed")));

        A2aClient.Reply asked = client.send(card, A2aClient.Request.of("ctx", "list files"), chunk -> { });
        A2aClient.Reply.Question question = org.junit.jupiter.api.Assertions.assertInstanceOf(A2aClient.Reply.Question.class, asked);
        assertEquals("Run exec ls?", question.text());
        assertEquals("task-9", question.taskId());
        assertEquals("ap-1", question.data().path("approvalId").asText());

        A2aClient.Reply done = client.send(card, new A2aClient.Request("ctx", "task-9", "approve", true), chunk -> { });
        assertEquals("listed", done.text());
        JsonNode sent = remote.requests().get(remote.requests().size() - 1).json().at("/params/message");
        assertEquals("task-9", sent.get("taskId").asText());
        assertEquals("[{\"kind\":\"text\",\"text\":\"approve\"},{\"kind\":\"data\",\"data\":{\"approved\":true}}]",
                sent.get("parts").toString());
    }

    @Test
    void clientAndServerUnderstandEachOther() throws Exception {
        A2aServer server = new A2aServer(new EchoTasks());
        remote.on("/rpc", request -> Answer.json(((A2aServer.Answer.Json) server.handle(request.body(), request.version())).body()));
        assertEquals("echo ping in ctx-1", client.send(helper(), "ctx-1", "ping"));
    }
}
