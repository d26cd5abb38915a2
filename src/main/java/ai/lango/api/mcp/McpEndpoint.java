package ai.lango.api.mcp;

import ai.lango.adk.AdkSessions;
import ai.lango.turns.TurnRefused;
import ai.lango.turns.Turns;
import ai.lango.api.ApiJson;
import ai.lango.api.TurnFailures;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.config.Ids;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.Audience;
import ai.lango.masking.SecretMask;
import ai.lango.mcp.McpProtocol;
import ai.lango.net.jsonrpc.JsonRpc;
import ai.lango.net.sse.SseWriter;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.turn.Names;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnFailedException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Lango as an MCP server: streamable HTTP at /mcp (protocol 2025-06-18 and 2025-11-25; older
 * clients are answered in 2025-06-18), for the same callers and credentials as /api. Its tools are
 * {@code chat} (a turn of Lango's agent as the caller's user, its answer written as progress while
 * the model writes, and the session id to go on with), {@code list_sessions}, {@code get_session} and
 * {@code answer_approval}. A call the agent makes that waits for a person is asked of the client as
 * an elicitation when it takes them; otherwise the result says what waits and how to answer it.
 * The Host and Origin of every request are checked (DNS rebinding); malformed JSON-RPC gets
 * JSON-RPC's errors.
 */
@WebServlet(name = "Mcp", urlPatterns = "/mcp", asyncSupported = true)
public class McpEndpoint extends HttpServlet {

    private static final Logger LOG = MaskedLogs.of(McpEndpoint.class);
    private static final ObjectMapper JSON = ApiJson.MAPPER;
    private static final AtomicLong ASKED = new AtomicLong();
    /** The newest conversations list_sessions names. */
    static final int LISTED = 50;

    @Inject
    LangoSettings settings;

    @Inject
    Credentials credentials;

    @Inject
    Quotas quotas;

    @Inject
    McpSessions sessions;

    @Inject
    Turns turns;

    @Inject
    AdkSessions adkSessions;


    @Inject
    Approvals approvals;

    /** Who calls, or empty after answering 401 (or 404 when MCP is off). */
    private Optional<Identity> caller(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!settings.mcp().serverEnabled()) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return Optional.empty();
        }
        Optional<Identity> caller = credentials.fromAuthorization(request.getHeader("Authorization"));
        if (caller.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer");
            error(response, HttpServletResponse.SC_UNAUTHORIZED, null, -32001, "unauthorized: send Authorization: Bearer <credential>");
            return Optional.empty();
        }
        Optional<java.time.Duration> overRate = quotas.request(caller.get());
        if (overRate.isPresent()) {
            error(response, 429, null, -32000, "too many requests (lango.quota.requests-per-minute)");
            return Optional.empty();
        }
        return caller;
    }

    private static String userOf(Identity caller) {
        return caller.operator() ? Names.DEFAULT_USER : caller.userId();
    }

    /** No stream of the server's own: what it says comes in the answers to POSTs. */
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (caller(request, response).isEmpty()) {
            return;
        }
        response.setHeader("Allow", "POST, DELETE");
        error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, null, -32000, "this server sends nothing on its own: POST requests");
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<Identity> caller = caller(request, response);
        if (caller.isEmpty()) {
            return;
        }
        response.setStatus(sessions.close(request.getHeader(McpProtocol.SESSION_HEADER), userOf(caller.get()))
                ? HttpServletResponse.SC_NO_CONTENT : HttpServletResponse.SC_NOT_FOUND);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse sent) throws IOException {
        Optional<Identity> who = caller(request, sent);
        if (who.isEmpty()) {
            return;
        }
        Identity caller = who.get();
        HttpServletResponse response = new ReadBy(sent, caller.audience());
        byte[] body;
        try {
            body = request.getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, settings.access().maxBody() + 1));
        } catch (IOException gone) {
            bodyEndedEarly(response, gone);
            return;
        }
        if (body.length > settings.access().maxBody()) {
            error(response, 413, null, JsonRpc.INVALID_REQUEST, "the request is larger than " + settings.access().maxBody() + " bytes (lango.http.max-body)");
            return;
        }
        JsonNode message;
        try {
            message = JsonRpc.readMessage(SecretMask.mask(new String(body, StandardCharsets.UTF_8), caller.audience()));
        } catch (JsonRpc.Invalid invalid) {
            error(response, 400, invalid.id(), invalid.code(), invalid.code() == JsonRpc.PARSE_ERROR
                    ? "parse error: the body is not JSON" : "invalid request: " + invalid.getMessage());
            return;
        }
        JsonNode id = message.get("id");
        String method = message.path("method").asText("");
        if ("initialize".equals(method)) {
            initialize(caller, id, message.path("params"), response);
            return;
        }
        Optional<McpSessions.Session> session = sessions.of(request.getHeader(McpProtocol.SESSION_HEADER), userOf(caller));
        if (session.isEmpty()) {
            error(response, HttpServletResponse.SC_NOT_FOUND, id, -32001,
                    "no such session: initialize first (a session lives on the server that began it)");
            return;
        }
        if (!JsonRpc.isRequest(message)) {
            // A notification, or an answer to what this server asked (an elicitation).
            if (JsonRpc.isResponse(message)) {
                CompletableFuture<JsonNode> waiting = session.get().awaiting.remove(JsonRpc.key(id));
                if (waiting != null) {
                    waiting.complete(message);
                }
            }
            response.setStatus(HttpServletResponse.SC_ACCEPTED);
            return;
        }
        JsonNode params = message.path("params");
        switch (method) {
            case "ping" -> result(response, id, JSON.createObjectNode());
            case "tools/list" -> result(response, id, tools());
            case "logging/setLevel" -> {
                session.get().logLevel = params.path("level").asText("info");
                result(response, id, JSON.createObjectNode());
            }
            case "tools/call" -> call(caller, session.get(), id, params, request, response);
            default -> error(response, 200, id, JsonRpc.METHOD_NOT_FOUND, "method not found: " + method);
        }
    }

    /**
     * A body that ended before its length (the client went away mid-upload): not the server's failure, so one FINE
     * line and no stack trace; a 400 in case the client is still there to read it.
     */
    private static void bodyEndedEarly(HttpServletResponse response, IOException gone) {
        LOG.fine(() -> "an MCP request's body ended early (the client went away): " + gone.getClass().getSimpleName());
        try {
            error(response, HttpServletResponse.SC_BAD_REQUEST, null, JsonRpc.INVALID_REQUEST, "the request body ended before its length");
        } catch (IOException | RuntimeException alsoGone) {
            // no one is there to read it
        }
    }

    private void initialize(Identity caller, JsonNode id, JsonNode params, HttpServletResponse response) throws IOException {
        String asked = params.path("protocolVersion").asText("");
        String agreed = McpProtocol.SERVER_VERSIONS.contains(asked) ? asked : McpProtocol.SERVER_FALLBACK;
        McpSessions.Session session = sessions.open(userOf(caller), agreed, params.path("capabilities").has("elicitation"));
        ObjectNode result = JSON.createObjectNode().put("protocolVersion", agreed);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools").put("listChanged", false);
        capabilities.putObject("logging");
        result.putObject("serverInfo").put("name", "lango").put("title", "Lango").put("version", ai.lango.api.LangoVersion.get());
        result.put("instructions", "Lango is an AI agent server. Call chat to give its agent a message (the session id it"
                + " answers with continues that conversation); list_sessions and get_session read your conversations.");
        response.setHeader(McpProtocol.SESSION_HEADER, session.id);
        result(response, id, result);
    }

    /** The tools Lango offers, with their input schemas. */
    private static ObjectNode tools() {
        ObjectNode chatSchema = JSON.createObjectNode().put("type", "object");
        ObjectNode chatProperties = chatSchema.putObject("properties");
        chatProperties.set("message", JSON.createObjectNode().put("type", "string").put("description", "what to say to the agent"));
        chatProperties.set("sessionId", JSON.createObjectNode().put("type", "string")
                .put("description", "the conversation to go on with; a new one when absent"));
        chatSchema.putArray("required").add("message");
        ObjectNode getSchema = JSON.createObjectNode().put("type", "object");
        getSchema.putObject("properties").set("sessionId", JSON.createObjectNode().put("type", "string"));
        getSchema.putArray("required").add("sessionId");
        ObjectNode answerSchema = JSON.createObjectNode().put("type", "object");
        ObjectNode answerProperties = answerSchema.putObject("properties");
        answerProperties.set("approvalId", JSON.createObjectNode().put("type", "string"));
        answerProperties.set("approved", JSON.createObjectNode().put("type", "boolean"));
        answerSchema.putArray("required").add("approvalId").add("approved");
        List<McpProtocol.ToolInfo> offered = List.of(
                new McpProtocol.ToolInfo("chat", "Chat with Lango's agent", "Gives Lango's agent a message and answers with its"
                        + " reply and the session id; pass that sessionId to go on with the same conversation.", chatSchema,
                        JSON.createObjectNode().put("readOnlyHint", false).put("openWorldHint", true)),
                new McpProtocol.ToolInfo("list_sessions", "List your conversations", "Your conversations with Lango's agent,"
                        + " newest first (the newest " + LISTED + "): id and title.",
                        JSON.createObjectNode().put("type", "object").set("properties", JSON.createObjectNode()),
                        JSON.createObjectNode().put("readOnlyHint", true)),
                new McpProtocol.ToolInfo("get_session", "Read a conversation", "The messages of one of your conversations.",
                        getSchema, JSON.createObjectNode().put("readOnlyHint", true)),
                new McpProtocol.ToolInfo("answer_approval", "Approve or deny a waiting call", "Decides a call of the agent that"
                        + " waits for your approval (chat says which), and goes on with the conversation.", answerSchema, null));
        ObjectNode result = JSON.createObjectNode();
        ArrayNode tools = result.putArray("tools");
        offered.forEach(tool -> tools.add(tool.json()));
        return result;
    }

    private void call(Identity caller, McpSessions.Session session, JsonNode id, JsonNode params, HttpServletRequest request,
                      HttpServletResponse response) throws IOException {
        String tool = params.path("name").asText("");
        JsonNode args = params.path("arguments");
        switch (tool) {
            case "chat", "answer_approval" -> converse(caller, session, id, tool, args, params, request, response);
            case "list_sessions" -> result(response, id, text(listSessions(userOf(caller)), false));
            case "get_session" -> {
                String sessionId = args.path("sessionId").asText("");
                Optional<String> problem = Ids.problem("sessionId", sessionId);
                if (problem.isPresent()) {
                    result(response, id, text(problem.get(), true));
                    return;
                }
                result(response, id, adkSessions.read(userOf(caller), sessionId).map(McpEndpoint::conversation)
                        .map(text -> text(text, false)).orElseGet(() -> text("no session \"" + sessionId + "\"", true)));
            }
            default -> error(response, 200, id, JsonRpc.INVALID_PARAMS, "unknown tool: " + tool + " (chat, list_sessions, get_session, answer_approval)");
        }
    }

    /**
     * A turn of the agent (chat), or the turn a decided approval resumes (answer_approval). With
     * {@code text/event-stream} accepted, the answer streams as progress notifications while the model
     * writes and a waiting call is asked of the client as an elicitation when it takes them; the
     * result ends the stream.
     */
    private void converse(Identity caller, McpSessions.Session session, JsonNode id, String tool, JsonNode args, JsonNode params,
                          HttpServletRequest request, HttpServletResponse response) throws IOException {
        String user = userOf(caller);
        String sessionKey;
        String approvalId = args.path("approvalId").asText("");
        if (tool.equals("chat")) {
            String message = args.path("message").asText("");
            if (message.isBlank()) {
                result(response, id, text("\"message\" is required", true));
                return;
            }
            sessionKey = args.path("sessionId").asText("").isBlank() ? "mcp-" + UUID.randomUUID() : args.path("sessionId").asText();
            Optional<String> problem = Ids.problem("sessionId", sessionKey);
            if (problem.isPresent()) {
                result(response, id, text(problem.get(), true));
                return;
            }
        } else {
            // only looked up here: decided once the turn it goes on with is let in, so that a refused one leaves it waiting
            Optional<Approval> waiting = approvals.get(approvalId)
                    .filter(a -> a.userId().equals(user) && a.decision() == Approval.Decision.PENDING);
            if (waiting.isEmpty()) {
                result(response, id, notWaiting(approvalId));
                return;
            }
            sessionKey = waiting.get().sessionKey();
        }
        boolean stream = String.valueOf(request.getHeader("Accept")).contains("text/event-stream");
        // The stream opens once the turn is let in (a refusal is a plain answer, and so is a question decided meanwhile).
        Stream[] out = {null};
        Runnable open = () -> {
            if (stream && out[0] == null) {
                try {
                    out[0] = Stream.open(response);
                } catch (IOException e) {
                    LOG.fine(() -> "an MCP client left before its answer: " + e.getMessage());
                }
            }
        };
        JsonNode progressToken = params.path("_meta").path("progressToken");
        StringBuilder written = new StringBuilder();
        List<TurnEvent.ApprovalRequest> asked = new CopyOnWriteArrayList<>();
        Consumer<TurnEvent> collect = event -> {
            if (event instanceof TurnEvent.Chunk chunk && out[0] != null && !progressToken.isMissingNode()) {
                written.append(chunk.text());
                ObjectNode progress = JSON.createObjectNode().put("progressToken", progressToken.asText())
                        .put("progress", written.length()).put("message", chunk.text());
                out[0].send(JsonRpc.notification("notifications/progress", progress));
            } else if (event instanceof TurnEvent.ApprovalRequest approval) {
                asked.add(approval);
            }
        };
        Turns.Listener listener = Turns.Listener.of(collect).onceAdmitted(open).from("mcp", null);
        Turns.Continuation continuing = () -> {
            open.run();
            return listener;
        };
        try {
            String message = args.path("message").asText("");
            String answer = turns.await(tool.equals("chat") ? turns.start(caller, user, sessionKey, message, true, listener)
                    : turns.answer(caller, approvalId, args.path("approved").asBoolean(false), true, Optional.of(continuing)));
            while (!asked.isEmpty() && out[0] != null && session.elicitation) {
                TurnEvent.ApprovalRequest waiting = asked.remove(0);
                boolean approved = elicit(session, out[0], waiting);
                try {
                    answer = turns.await(turns.answer(caller, waiting.approvalId(), approved, true, Optional.of(continuing)));
                } catch (TurnRefused decidedMeanwhile) { // another answer, or its time ran out
                    break;
                }
            }
            ObjectNode result = asked.isEmpty() ? text(answer, false) : text(waitingText(answer, asked), false);
            ObjectNode structured = result.putObject("structuredContent").put("sessionId", sessionKey).put("answer", answer);
            if (!asked.isEmpty()) {
                ArrayNode waiting = structured.putArray("waitingForApproval");
                asked.forEach(a -> waiting.addObject().put("approvalId", a.approvalId()).put("tool", a.tool())
                        .set("arguments", JSON.valueToTree(a.args())));
            }
            answer(response, out[0], id, result);
        } catch (TurnRefused refused) {
            // not let in (the request, if any, still waits), or the question was decided meanwhile: nothing ran
            answer(response, out[0], id, refused.status() == 404 || refused.status() == 409 ? notWaiting(approvalId)
                    : text(refused.code() + ": " + refused.getMessage(), true));
        } catch (TurnFailedException e) {
            ObjectNode failed = text(TurnFailures.of(e).code() + ": " + e.getMessage(), true);
            failed.putObject("structuredContent").put("sessionId", sessionKey).put("error", TurnFailures.of(e).code());
            answer(response, out[0], id, failed);
        }
    }

    /** The tool call's result: over its stream when one opened (which it then ends), as a plain answer otherwise. */
    private static void answer(HttpServletResponse response, Stream out, JsonNode id, ObjectNode result) throws IOException {
        if (out != null) {
            out.send(JsonRpc.result(id, result));
            out.close();
        } else {
            result(response, id, result);
        }
    }

    /** Asks the client whether the waiting call may run; no answer within the approval's time is no. */
    private boolean elicit(McpSessions.Session session, Stream out, TurnEvent.ApprovalRequest waiting) {
        String requestId = "lango-elicit-" + ASKED.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        session.awaiting.put(requestId, answer);
        ObjectNode params = JSON.createObjectNode().put("message", waiting.agent() + " asks to run " + waiting.tool() + " ("
                + waiting.safety() + ") with " + JSON.valueToTree(waiting.args()) + (waiting.notes().isEmpty() ? ""
                : "; note " + JSON.valueToTree(waiting.notes())) + ". Approve?");
        ObjectNode schema = params.putObject("requestedSchema").put("type", "object");
        schema.putObject("properties").set("approved", JSON.createObjectNode().put("type", "boolean").put("title", "Approve")
                .put("description", "Run " + waiting.tool() + " as shown").put("default", false));
        schema.putArray("required").add("approved");
        out.send(JsonRpc.request(requestId, "elicitation/create", params));
        try {
            JsonNode response = answer.get(settings.approval().timeout().toMillis(), TimeUnit.MILLISECONDS);
            JsonNode result = response.path("result");
            return "accept".equals(result.path("action").asText()) && result.path("content").path("approved").asBoolean(false);
        } catch (Exception noAnswer) {
            return false;
        } finally {
            session.awaiting.remove(requestId);
        }
    }

    private static ObjectNode notWaiting(String approvalId) {
        return text("no request for approval \"" + approvalId + "\" of yours waits", true);
    }

    private static String waitingText(String answer, List<TurnEvent.ApprovalRequest> asked) {
        StringBuilder text = new StringBuilder(answer == null || answer.isBlank() ? "" : answer + "\n\n");
        for (TurnEvent.ApprovalRequest request : asked) {
            // toString(): append(valueToTree(…)) would take the node for a CharSequence (ClassCastException)
            text.append("Waiting for your approval: ").append(request.tool()).append(' ')
                    .append(JSON.<JsonNode>valueToTree(request.args()).toString())
                    .append(" (").append(request.safety()).append(", until ").append(request.expiresAt()).append("). Call")
                    .append(" answer_approval with {\"approvalId\": \"").append(request.approvalId())
                    .append("\", \"approved\": true} to run it, or false to refuse.\n");
        }
        return text.toString().strip();
    }

    private String listSessions(String user) {
        try {
            JsonNode list = JSON.readTree(adkSessions.list(user));
            StringBuilder text = new StringBuilder();
            List<JsonNode> all = new ArrayList<>();
            list.forEach(all::add);
            all.sort((a, b) -> Double.compare(b.path("lastUpdateTime").asDouble(), a.path("lastUpdateTime").asDouble()));
            int shown = 0;
            for (JsonNode session : all) {
                if (++shown > LISTED) {
                    text.append("… and ").append(all.size() - LISTED).append(" more\n");
                    break;
                }
                String title = session.path("state").path("lango:title").asText(session.path("id").asText());
                text.append(session.path("id").asText()).append(" — ").append(title).append('\n');
            }
            return all.isEmpty() ? "You have no conversations yet." : text.toString().strip();
        } catch (IOException e) {
            return "the sessions could not be read";
        }
    }

    /** A session's messages as text: who said what. */
    private static String conversation(String adkJson) {
        try {
            JsonNode session = JSON.readTree(adkJson);
            StringBuilder text = new StringBuilder();
            for (JsonNode event : session.path("events")) {
                StringBuilder said = new StringBuilder();
                for (JsonNode part : event.path("content").path("parts")) {
                    said.append(part.path("text").asText(""));
                }
                if (said.length() > 0) {
                    text.append(event.path("author").asText()).append(": ").append(said).append("\n\n");
                }
            }
            return text.length() == 0 ? "(no messages)" : text.toString().strip();
        } catch (IOException e) {
            return "the session could not be read";
        }
    }

    private static ObjectNode text(String text, boolean isError) {
        return McpProtocol.textResult(text, isError);
    }

    private static void result(HttpServletResponse response, JsonNode id, JsonNode result) throws IOException {
        write(response, 200, JsonRpc.result(id, result));
    }

    private static void error(HttpServletResponse response, int status, JsonNode id, int code, String message) throws IOException {
        write(response, status, JsonRpc.error(id, code, message));
    }

    /** An answer to a caller: what it carries is masked for them (a secret they may not use is unnamed). */
    private static final class ReadBy extends jakarta.servlet.http.HttpServletResponseWrapper {
        final Audience reader;

        ReadBy(HttpServletResponse response, Audience reader) {
            super(response);
            this.reader = reader;
        }
    }

    private static Audience readerOf(HttpServletResponse response) {
        return response instanceof ReadBy answer ? answer.reader : Audience.NOBODY;
    }

    private static void write(HttpServletResponse response, int status, JsonNode message) throws IOException {
        byte[] bytes = SecretMask.mask(message.toString(), readerOf(response)).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** An answer as server-sent events: each message an event, written and flushed as it comes, secrets masked. */
    private static final class Stream {
        private final OutputStream out;
        private final SseWriter events;
        private final Audience reader;
        private boolean broken;

        private Stream(OutputStream out, Audience reader) {
            this.out = out;
            this.events = SseWriter.spaced(out);
            this.reader = reader;
        }

        static Stream open(HttpServletResponse response) throws IOException {
            response.setStatus(200);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-cache");
            OutputStream out = response.getOutputStream();
            out.flush();
            return new Stream(out, readerOf(response));
        }

        synchronized void send(JsonNode message) {
            if (broken) {
                return;
            }
            try {
                events.event("message", SecretMask.mask(message.toString(), reader));
            } catch (IOException e) {
                broken = true; // the client went away; the turn goes on and is stored
                LOG.fine(() -> "an MCP client left mid-answer: " + e.getMessage());
            }
        }

        synchronized void close() {
            try {
                out.close();
            } catch (IOException ignored) {
                // gone already
            }
        }
    }
}
