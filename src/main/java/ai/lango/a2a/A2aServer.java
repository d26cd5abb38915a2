package ai.lango.a2a;

import ai.lango.config.Ids;
import ai.lango.net.jsonrpc.JsonRpc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The A2A JSON-RPC endpoint's logic, without a container: reads a request (JSON-RPC's own checks are
 * {@link JsonRpc#readRequest}'s) in either version (chosen by its method name), checks it, hands it to the {@link Tasks} behind the endpoint and answers in the same
 * version — a JSON body, or a stream of task events for the streaming methods. Every bad request is the
 * JSON-RPC error A2A names for it.
 */
public final class A2aServer {

    /** The longest text of one message accepted, as for a chat frame. */
    public static final int MAX_TEXT_CHARS = 1024 * 1024;
    /** The most parts one message may have. */
    public static final int MAX_PARTS = 64;
    /** Context ids become session ids "a2a-&lt;contextId&gt;", which follow the id rule ({@link Ids}). */
    public static final int MAX_CONTEXT_ID_CHARS = Ids.MAX_LENGTH - "a2a-".length();
    /** ListTasks' page size: at most, and when none is asked. */
    public static final int MAX_PAGE_SIZE = 100;
    public static final int DEFAULT_PAGE_SIZE = 50;
    /**
     * A ListTasks page ends before the task that would take its tasks past this many bytes (as stored), so a
     * listing of large tasks comes in several pages; a page holds at least one task.
     */
    public static final int MAX_PAGE_BYTES = 1024 * 1024;

    /** How a send runs: whether the caller waits for the task to stop, how much history it wants back, what it accepts. */
    public record SendOptions(boolean blocking, Integer historyLength, List<String> acceptedOutputModes) {
    }

    /** A ListTasks query of the caller's own tasks. */
    public record TaskQuery(String contextId, TaskState state, Instant statusAfter, int pageSize, String pageToken,
                            Integer historyLength, boolean includeArtifacts) {
    }

    /** One page of tasks, and the token of the next ("" when this is the last). */
    public record TaskPage(List<Task> tasks, String nextPageToken, int totalSize) {
    }

    /** A task's events as they happen; {@link #next} returns null once the stream is over. */
    public interface Subscription extends AutoCloseable {
        /** The next event, waiting at most {@code wait}; null when the stream has ended, or nothing came in time. */
        TaskEvent next(Duration wait) throws InterruptedException;

        /** Whether the last event has been taken. */
        boolean ended();

        @Override
        void close();
    }

    /** What the endpoint does with tasks, for the caller of this request. Failures are A2aExceptions with their code. */
    public interface Tasks {
        /** Starts a task with {@code message}, or continues the one its taskId names; the task as the options leave it. */
        Task send(Message message, SendOptions options) throws A2aException;

        /** The same, as a stream of the task's events from its start. */
        Subscription stream(Message message, SendOptions options) throws A2aException;

        Task get(String id) throws A2aException;

        TaskPage list(TaskQuery query) throws A2aException;

        Task cancel(String id) throws A2aException;

        /** The events of a task that has not ended, from now on (the task itself first). */
        Subscription subscribe(String id) throws A2aException;
    }

    /** What the endpoint answers: one JSON body, or a stream of events to write as SSE. */
    public sealed interface Answer {
        record Json(String body) implements Answer {
        }

        /** {@code id}: the request's, repeated in every event; events written in {@code version}. */
        record Stream(JsonNode id, A2aVersion version, Integer historyLength, Subscription events) implements Answer {

            /** One event as its JSON-RPC response's JSON. */
            public String frame(TaskEvent event) {
                return JsonRpc.result(id, A2aWire.streamResult(version, event, historyLength)).toString();
            }
        }
    }

    private final Tasks tasks;

    public A2aServer(Tasks tasks) {
        this.tasks = Objects.requireNonNull(tasks, "tasks");
    }

    /** The answer to a request body; {@code versionHeader}: the A2A-Version header, if sent. Never throws. */
    public Answer handle(String body, String versionHeader) {
        Object answer = respond(body, versionHeader);
        return answer instanceof Answer.Stream stream ? stream : new Answer.Json(answer.toString());
    }

    /** The JSON-RPC response to a request body, or a stream. */
    Object respond(String body, String versionHeader) {
        JsonNode request;
        try {
            request = JsonRpc.readRequest(body);
        } catch (JsonRpc.Invalid e) {
            return e.response();
        }
        JsonNode id = request.get("id");
        JsonNode method = request.get("method");
        if (versionHeader != null && !versionHeader.isBlank() && A2aVersion.ofNumber(versionHeader).isEmpty()) {
            return JsonRpc.error(id, A2aErrors.VERSION_NOT_SUPPORTED, "A2A version \"" + versionHeader
                    + "\" is not supported; this agent speaks 1.0 and 0.3");
        }
        String name = method.asText();
        Optional<A2aVersion> version = A2aVersion.ofMethod(name);
        if (version.isEmpty()) {
            return unknown(id, name);
        }
        JsonNode params = request.get("params");
        if (params == null || !params.isObject()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "params must be an object");
        }
        try {
            return call(id, version.get(), name, params);
        } catch (A2aException e) {
            return JsonRpc.error(id, e.code(), e.getMessage());
        }
    }

    private Object call(JsonNode id, A2aVersion v, String method, JsonNode params) throws A2aException {
        if (method.equals(v.send) || method.equals(v.stream)) {
            Message message = message(params);
            SendOptions options = options(v, params.path("configuration"));
            if (method.equals(v.stream)) {
                return new Answer.Stream(id, v, options.historyLength(), tasks.stream(message, options));
            }
            return JsonRpc.result(id, A2aWire.sendResult(v, tasks.send(message, options), options.historyLength()));
        }
        if (method.equals(v.list)) {
            return list(id, v, params);
        }
        String taskId = taskId(params, method);
        if (method.equals(v.get)) {
            Integer history = historyLength(params.get("historyLength"));
            return JsonRpc.result(id, A2aWire.task(v, tasks.get(taskId), history));
        }
        if (method.equals(v.cancel)) {
            return JsonRpc.result(id, A2aWire.task(v, tasks.cancel(taskId), null));
        }
        return new Answer.Stream(id, v, null, tasks.subscribe(taskId));
    }

    private ObjectNode list(JsonNode id, A2aVersion v, JsonNode params) throws A2aException {
        int pageSize = DEFAULT_PAGE_SIZE;
        if (params.hasNonNull("pageSize")) {
            JsonNode size = params.get("pageSize");
            if (!size.canConvertToInt() || size.asInt() < 1 || size.asInt() > MAX_PAGE_SIZE) {
                throw new A2aException(JsonRpc.INVALID_PARAMS, "params.pageSize must be 1 to " + MAX_PAGE_SIZE);
            }
            pageSize = size.asInt();
        }
        TaskState state = null;
        JsonNode status = params.get("status");
        // The 1.0 SDK sends "UNRECOGNIZED" when its caller sets no filter: no filter.
        if (status != null && !status.isNull() && !status.asText("").equals("UNRECOGNIZED") && !status.asText("").isEmpty()
                && !(status.isIntegralNumber() && status.asInt() == 0) && !status.asText("").equals("TASK_STATE_UNSPECIFIED")) {
            state = TaskState.read(status);
            if (state == TaskState.UNKNOWN) {
                throw new A2aException(JsonRpc.INVALID_PARAMS, "params.status \"" + status.asText() + "\" is not a task state");
            }
        }
        Instant after = null;
        if (params.hasNonNull("statusTimestampAfter")) {
            try {
                after = Instant.parse(params.get("statusTimestampAfter").asText());
            } catch (DateTimeParseException e) {
                throw new A2aException(JsonRpc.INVALID_PARAMS, "params.statusTimestampAfter must be an ISO-8601 instant");
            }
        }
        String contextId = params.hasNonNull("contextId") ? params.get("contextId").asText() : null;
        TaskQuery query = new TaskQuery(contextId, state, after, pageSize, params.path("pageToken").asText(""),
                historyLength(params.get("historyLength")), params.path("includeArtifacts").asBoolean(false));
        TaskPage page = tasks.list(query);
        var result = A2aJson.MAPPER.createObjectNode();
        var array = result.putArray("tasks");
        for (Task task : page.tasks()) {
            array.add(A2aWire.task(v, query.includeArtifacts() ? task : task.withoutArtifacts(), query.historyLength()));
        }
        result.put("nextPageToken", page.nextPageToken()).put("pageSize", pageSize).put("totalSize", page.totalSize());
        return JsonRpc.result(id, result);
    }

    private static ObjectNode unknown(JsonNode id, String name) {
        if (name.startsWith(A2aProtocol.METHOD_PUSH_CONFIG_PREFIX_V03) || name.contains("PushNotificationConfig")) {
            return JsonRpc.error(id, A2aErrors.PUSH_NOTIFICATION_NOT_SUPPORTED,
                    "push notifications are not supported by this agent");
        }
        if (name.equals(A2aProtocol.METHOD_EXTENDED_CARD_V03) || name.equals(A2aProtocol.METHOD_EXTENDED_CARD)) {
            return JsonRpc.error(id, A2aErrors.AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED,
                    "this agent has no extended card");
        }
        return JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "unknown method \"" + name + "\"; this agent"
                + " answers SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask (A2A 1.0) and"
                + " message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe (0.3)");
    }

    /** The message of a send, checked: the user's, with text or data, within the limits, in a valid context. */
    static Message message(JsonNode params) throws A2aException {
        JsonNode node = params.get("message");
        if (node == null || !node.isObject()) {
            throw invalid("params.message is required: {\"message\":{\"role\":\"ROLE_USER\",\"parts\":[{\"text\":…}],"
                    + "\"messageId\":…}}");
        }
        Message message;
        try {
            message = A2aWire.readMessage(node);
        } catch (IllegalArgumentException e) {
            throw invalid("params.message: " + e.getMessage());
        }
        if (message.role() != Message.Role.USER) {
            throw invalid("params.message.role must be the user's, not the agent's");
        }
        if (message.parts().isEmpty()) {
            throw invalid("params.message.parts must be a non-empty array of parts such as {\"text\":…}");
        }
        if (message.parts().size() > MAX_PARTS) {
            throw invalid("params.message has " + message.parts().size() + " parts; at most " + MAX_PARTS + " are accepted");
        }
        List<String> files = new ArrayList<>();
        int chars = 0;
        for (Part part : message.parts()) {
            if (part.isText()) {
                chars += part.text().length();
            } else if (part.isData()) {
                chars += part.data().toString().length();
            } else {
                files.add(part.filename() == null ? "a file" : part.filename());
            }
        }
        if (chars == 0 && !files.isEmpty()) {
            throw new A2aException(A2aErrors.CONTENT_TYPE_NOT_SUPPORTED, "this agent reads text and data parts only;"
                    + " the message has file parts (" + String.join(", ", files) + ")");
        }
        if (chars > MAX_TEXT_CHARS) {
            throw invalid("the message's text is " + chars + " characters long; at most " + MAX_TEXT_CHARS + " are accepted");
        }
        if (message.text().isBlank() && message.parts().stream().noneMatch(Part::isData)) {
            throw invalid("the message has no text");
        }
        String context = message.contextId();
        if (context != null && !(Ids.valid(context) && context.length() <= MAX_CONTEXT_ID_CHARS)) {
            throw invalid("params.message.contextId must be an id of 1 to " + MAX_CONTEXT_ID_CHARS
                    + " letters, digits, '.', '_', ':', '@' or '-' (not \".\" or \"..\")");
        }
        return message;
    }

    private static SendOptions options(A2aVersion v, JsonNode configuration) throws A2aException {
        boolean blocking = v == A2aVersion.V1_0 ? !configuration.path("returnImmediately").asBoolean(false)
                : configuration.path("blocking").asBoolean(true);
        List<String> modes = new ArrayList<>();
        configuration.path("acceptedOutputModes").forEach(m -> modes.add(m.asText()));
        return new SendOptions(blocking, historyLength(configuration.get("historyLength")), modes);
    }

    private static Integer historyLength(JsonNode node) throws A2aException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.canConvertToInt() || node.asInt() < 0) {
            throw invalid("historyLength must be a whole number of 0 or more");
        }
        return node.asInt();
    }

    private static String taskId(JsonNode params, String method) throws A2aException {
        JsonNode id = params.get("id");
        if (id == null || !id.isTextual() || id.asText().isBlank()) {
            throw invalid(method + " needs params.id, the task's id");
        }
        return id.asText();
    }

    private static A2aException invalid(String message) {
        return new A2aException(JsonRpc.INVALID_PARAMS, message);
    }
}
