package ai.lango.api.chat;

import static ai.lango.api.chat.ChatFrames.error;
import static ai.lango.api.chat.ChatFrames.event;
import static ai.lango.api.chat.ChatFrames.payload;
import static ai.lango.api.chat.ChatFrames.send;

import ai.lango.api.ApiJson;
import ai.lango.turns.TurnRefused;
import ai.lango.turns.Turns;
import ai.lango.config.Ids;
import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.session.SessionTitles;
import ai.lango.turn.Names;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * WebSocket chat (docs/contract.md): a {@code chat.message} request, events while the turn runs, then
 * exactly one response. A malformed frame gets an error response and the connection stays open.
 * Turns run on the agent's turn threads, so a slow model never holds a container thread.
 */
@Dependent // a bean-defining annotation, or the container leaves @Inject fields null
@ServerEndpoint("/ws")
public class ChatSocket {

    /** Frames larger than this many bytes (UTF-8) are refused with an error response. */
    static final int MAX_FRAME_BYTES = 1024 * 1024;
    /** Frames arrive in parts of at most this many characters, so a frame of any size is counted, never held. */
    static final int PART_CHARS = 64 * 1024;
    static final String DEFAULT_SESSION = "default";

    private static final Logger LOG = MaskedLogs.of(ChatSocket.class);
    private static final ObjectMapper JSON = ApiJson.MAPPER;

    @Inject
    Turns turns;

    @Inject
    LangoSettings settings;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    @Inject
    Credentials credentials;

    @Inject
    Quotas quotas;


    @Inject
    ApprovalDesk desk;

    @Inject
    OpenSockets sockets;

    @Inject
    ai.lango.turns.Resumes resumes;

    /** How this socket hears its user's turns that the server resumed after a crash, once it is someone's. */
    private volatile AutoCloseable watching;

    /** One endpoint instance per connection: who it is, once it has shown a credential (or none is needed). */
    private volatile Identity caller;
    /** The frame being received, part by part; its size in UTF-8 bytes, and whether it went over the limit. */
    private final StringBuilder frame = new StringBuilder();
    private long frameBytes;
    private boolean frameTooLarge;
    /** The close of a socket that has not authenticated in time; cancelled once it has, or has closed. */
    private volatile ScheduledFuture<?> authDeadline;

    @OnOpen
    public void open(Session session) {
        caller = credentials.required() ? null : Identity.OPERATOR;
        if (caller != null) {
            FrameOutbox.readBy(session, caller.audience());
            sockets.opened(session, user(), credentials.authenticate(null).orElseThrow());
            desk.opened(user(), session); // its user's requests still waiting, and their endings from now on
            watching = resumes.watch(user(), TurnStream.watcher(session));
        }
        session.setMaxTextMessageBufferSize(PART_CHARS);
        session.setMaxBinaryMessageBufferSize(PART_CHARS);
        session.setMaxIdleTimeout(0);
        if (caller == null) {
            // A socket that never authenticates must not stay open: it would hold a connection for nothing.
            Duration wait = settings.access().authTimeout();
            authDeadline = scheduler.schedule(() -> {
                if (caller == null && session.isOpen()) {
                    close(session, "no auth frame within " + wait.toSeconds() + " s; authenticate first with"
                            + " {\"type\":\"auth\",\"token\":…}");
                }
            }, wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** A text frame, part by part: kept up to the limit, counted (never held) past it. */
    @OnMessage
    public void text(Session session, String part, boolean last) {
        if (!frameTooLarge) {
            frameBytes += utf8Length(part);
            if (frameBytes > MAX_FRAME_BYTES) {
                frameTooLarge = true;
                frame.setLength(0);
                frame.trimToSize();
            } else {
                frame.append(part);
            }
        }
        if (!last) {
            return;
        }
        boolean tooLarge = frameTooLarge;
        String text = frame.toString();
        frame.setLength(0);
        frameBytes = 0;
        frameTooLarge = false;
        if (tooLarge) {
            if (caller == null) {
                authenticate(session, JSON.createObjectNode());
                return;
            }
            send(session, error(null, "frame_too_large", "frames are limited to " + MAX_FRAME_BYTES + " bytes (1 MiB)"));
            return;
        }
        text(session, text);
    }

    private void text(Session session, String frame) {
        JsonNode request;
        try {
            request = JSON.readTree(frame);
        } catch (IOException e) {
            if (caller == null) {
                authenticate(session, JSON.createObjectNode());
                return;
            }
            send(session, error(null, "invalid_json", "the frame is not valid JSON"));
            return;
        }
        if (caller == null) {
            authenticate(session, request);
            return;
        }
        if (!sockets.stillValid(session)) {
            return; // the credential ended: the socket is told and closes; nothing more runs on it
        }
        JsonNode id = request.get("id");
        Optional<Duration> overRate = quotas.request(caller);
        if (overRate.isPresent()) {
            send(session, error(id, "rate_limited", "too many requests (lango.quota.requests-per-minute): try again in "
                    + Math.max(1, overRate.get().toSeconds()) + " s"));
            return;
        }
        if (!request.isObject() || !"request".equals(request.path("type").asText())) {
            send(session, error(id, "invalid_request", "expected {\"type\":\"request\",\"id\":…,\"method\":…,\"params\":{…}}"));
            return;
        }
        if ("session.rename".equals(request.path("method").asText())) {
            rename(session, id, request.path("params"));
            return;
        }
        if ("approval.response".equals(request.path("method").asText())) {
            approval(session, id, request.path("params"));
            return;
        }
        if ("chat.abort".equals(request.path("method").asText())) {
            abort(session, id, request.path("params"));
            return;
        }
        if ("session.delete".equals(request.path("method").asText())) {
            delete(session, id, request.path("params"));
            return;
        }
        if (!"chat.message".equals(request.path("method").asText())) {
            send(session, error(id, "unknown_method", "unknown method \"" + request.path("method").asText()
                    + "\"; supported: chat.message, chat.abort, approval.response, session.rename, session.delete"));
            return;
        }
        String sessionKey = request.path("params").path("sessionKey").asText(DEFAULT_SESSION);
        String message = request.path("params").path("message").asText("");
        if (sessionKey.isBlank() || message.isBlank()) {
            send(session, error(id, "invalid_params", "params.message is required (params.sessionKey defaults to \"default\")"));
            return;
        }
        Optional<String> invalidKey = Ids.problem("params.sessionKey", sessionKey);
        if (invalidKey.isPresent()) {
            send(session, error(id, "invalid_id", invalidKey.get()));
            return;
        }
        turn(session, id, sessionKey, message, request.path("params").path("retry").asBoolean(false));
    }

    /**
     * {@code approval.response} {approvalId, approved}: this socket's user answers a request of
     * theirs. The response says the decision in force ({@code approved}, {@code denied}, or what it
     * already was: {@code expired} …; {@code unknown} for no request of this user's); an answer that
     * decided resumes the turn, whose events come to the socket that asked (or this one).
     */
    private void approval(Session session, JsonNode id, JsonNode params) {
        String approvalId = params.path("approvalId").asText("");
        JsonNode approved = params.path("approved");
        if (approvalId.isBlank() || !approved.isBoolean()) {
            send(session, error(id, "invalid_params", "params.approvalId (text) and params.approved (true or false) are required"));
            return;
        }
        String status;
        try {
            status = desk.answer(caller, approvalId, approved.asBoolean(), session);
        } catch (TurnRefused refused) { // the turn it continues is not let in: the request still waits
            send(session, error(id, refused.code(), refused.getMessage()));
            return;
        }
        send(session, ChatFrames.response(id, JSON.createObjectNode().put("approvalId", approvalId).put("status", status)));
    }

    /**
     * {@code chat.abort} {sessionKey}: the turn of this user's session running now stops where it
     * waits, as at its timeout; its {@code chat.message} gets the error {@code aborted}, and the
     * session is free at once. The response says whether a turn was running.
     */
    private void abort(Session session, JsonNode id, JsonNode params) {
        String sessionKey = params.path("sessionKey").asText(DEFAULT_SESSION);
        Optional<String> invalidKey = Ids.problem("params.sessionKey", sessionKey);
        if (invalidKey.isPresent()) {
            send(session, error(id, "invalid_id", invalidKey.get()));
            return;
        }
        boolean stopped = turns.stop(user(), sessionKey);
        send(session, ChatFrames.response(id, JSON.createObjectNode().put("sessionKey", sessionKey).put("stopped", stopped)));
    }

    /**
     * {@code session.delete} {sessionKey}: this user's session is deleted (a turn of it running here
     * is stopped first), its history, memory and artifacts with it.
     */
    private void delete(Session session, JsonNode id, JsonNode params) {
        String sessionKey = params.path("sessionKey").asText("");
        Optional<String> invalidKey = Ids.problem("params.sessionKey", sessionKey);
        if (invalidKey.isPresent()) {
            send(session, error(id, "invalid_id", invalidKey.get()));
            return;
        }
        String userId = user();
        // It may wait for the stopped turn to end: not on the container's thread.
        CompletableFuture.supplyAsync(() -> turns.deleteSession(userId, sessionKey), scheduler).whenComplete((deleted, failure) -> {
            if (failure != null) {
                send(session, error(id, "session_busy", String.valueOf(failure.getCause() == null ? failure.getMessage()
                        : failure.getCause().getMessage())));
            } else if (!deleted) {
                send(session, error(id, "session_not_found", "no session \"" + sessionKey + "\""));
            } else {
                send(session, ChatFrames.response(id, JSON.createObjectNode().put("sessionKey", sessionKey).put("deleted", true)));
            }
        });
    }

    /** {@code session.rename} {sessionKey, title}: the session's title in the chat page's list. */
    private void rename(Session session, JsonNode id, JsonNode params) {
        String sessionKey = params.path("sessionKey").asText("");
        Optional<String> title = SessionTitles.of(params.path("title").asText(""));
        Optional<String> invalidKey = Ids.problem("params.sessionKey", sessionKey);
        if (invalidKey.isPresent()) {
            send(session, error(id, "invalid_id", invalidKey.get()));
        } else if (title.isEmpty()) {
            send(session, error(id, "invalid_params", "params.title must have a readable character"));
        } else if (!turns.renameSession(user(), sessionKey, title.get())) {
            send(session, error(id, "session_not_found", "no session \"" + sessionKey + "\""));
        } else {
            send(session, ChatFrames.response(id, JSON.createObjectNode().put("sessionKey", sessionKey).put("title", title.get())));
        }
    }

    /** Whose sessions this socket's turns are: its user's; the operator's are the user "user"'s. */
    private String user() {
        return caller.operator() ? Names.DEFAULT_USER : caller.userId();
    }

    @OnClose
    public void closed(Session session) {
        cancelAuthDeadline();
        sockets.closed(session);
        AutoCloseable watched = watching;
        if (watched != null) {
            try {
                watched.close();
            } catch (Exception e) {
                LOG.fine(() -> "stopped watching resumed turns: " + e.getMessage());
            }
        }
    }

    private void cancelAuthDeadline() {
        ScheduledFuture<?> deadline = authDeadline;
        if (deadline != null) {
            deadline.cancel(false);
        }
    }

    /** Protocol errors (bad UTF-8, an unmasked frame, a reset connection) end the connection; nothing to report. */
    @OnError
    public void failed(Session session, Throwable error) {
        LOG.fine(() -> "WebSocket connection failed: " + error);
    }

    private static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * With authentication configured, the first frame must be {"type":"auth","token":…} with a
     * credential (lango.auth.token, a user's API token or a JWT); anything else closes. The socket
     * then acts as that user.
     */
    private void authenticate(Session session, JsonNode frame) {
        Optional<Credentials.Presented> presented = "auth".equals(frame.path("type").asText())
                ? credentials.authenticate(frame.path("token").asText(null)) : Optional.empty();
        if (presented.isPresent()) {
            caller = presented.get().identity();
            FrameOutbox.readBy(session, caller.audience());
            cancelAuthDeadline();
            send(session, event("auth.ok", JSON.createObjectNode().put("userId", user())));
            sockets.opened(session, user(), presented.get());
            desk.opened(user(), session);
            watching = resumes.watch(user(), TurnStream.watcher(session));
            return;
        }
        close(session, "authenticate first with {\"type\":\"auth\",\"token\":…}");
    }

    private static void close(Session session, String reason) {
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, reason));
        } catch (IOException e) {
            LOG.fine(() -> "close failed: " + e.getMessage());
        }
    }

    /** A binary frame, part by part: never held, answered once it has ended. */
    @OnMessage
    public void binary(Session session, ByteBuffer part, boolean last) {
        if (!last) {
            return;
        }
        if (caller == null) {
            authenticate(session, JSON.createObjectNode());
            return;
        }
        send(session, error(null, "binary_not_supported", "send text frames with one JSON object each"));
    }

    /** Starts the turn on the agent's turn threads; the frames go out as it runs, the response when it ends. */
    private void turn(Session session, JsonNode id, String sessionKey, String message, boolean retry) {
        List<String> asked = new CopyOnWriteArrayList<>();
        Turns.Listener listener = Turns.Listener.of(TurnStream.listener(request -> desk.await(request.approvalId(),
                new ApprovalDesk.Waiter(session, id, sessionKey)), session, sessionKey, asked));
        CompletableFuture<String> turn;
        try {
            turn = turns.start(caller, user(), sessionKey, message, true, retry, listener.from("ws", null).onceAdmitted(
                    () -> send(session, event("agent.thinking", payload(sessionKey)))));
        } catch (TurnRefused refused) {
            send(session, error(id, refused.code(), refused.getMessage()));
            return;
        }
        TurnStream.finish(session, id, sessionKey, turn, asked);
    }
}
