package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The A2A model as JSON, in the version asked: writers for 1.0 (proto-shaped: {@code {"text":…}},
 * {@code "ROLE_AGENT"}, {@code "TASK_STATE_WORKING"}, results wrapped as {@code {"task":…}}) and 0.3
 * ({@code {"kind":"text",…}}, {@code "agent"}, {@code "working"}, bare results with a {@code kind}), and
 * readers that take either shape (1.0's enums also as numbers, as its SDKs accept them).
 */
public final class A2aWire {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private A2aWire() {
    }

    // ---- writing ----

    public static ObjectNode part(A2aVersion version, Part part) {
        ObjectNode node = JSON.objectNode();
        if (version == A2aVersion.V1_0) {
            if (part.text() != null) {
                node.put("text", part.text());
            } else if (part.data() != null) {
                node.set("data", part.data());
            } else if (part.url() != null) {
                node.put("url", part.url());
            } else {
                node.put("raw", part.raw() == null ? "" : part.raw());
            }
            putIfSet(node, "filename", part.filename());
            putIfSet(node, "mediaType", part.mediaType());
            return node;
        }
        if (part.text() != null) {
            return node.put("kind", "text").put("text", part.text());
        }
        if (part.data() != null) {
            node.put("kind", "data").set("data", part.data());
            return node;
        }
        ObjectNode file = node.put("kind", "file").putObject("file");
        if (part.url() != null) {
            file.put("uri", part.url());
        } else {
            file.put("bytes", part.raw() == null ? "" : part.raw());
        }
        putIfSet(file, "name", part.filename());
        putIfSet(file, "mimeType", part.mediaType());
        return node;
    }

    public static ObjectNode message(A2aVersion version, Message message) {
        ObjectNode node = JSON.objectNode();
        if (version == A2aVersion.V0_3) {
            node.put("kind", "message");
        }
        node.put("messageId", message.messageId() == null ? UUID.randomUUID().toString() : message.messageId());
        putIfSet(node, "contextId", message.contextId());
        putIfSet(node, "taskId", message.taskId());
        node.put("role", version == A2aVersion.V1_0 ? "ROLE_" + message.role().name()
                : message.role().name().toLowerCase(Locale.ROOT));
        ArrayNode parts = node.putArray("parts");
        message.parts().forEach(p -> parts.add(part(version, p)));
        return node;
    }

    public static ObjectNode status(A2aVersion version, Task.Status status) {
        ObjectNode node = JSON.objectNode().put("state", status.state().wire(version));
        if (status.message() != null) {
            node.set("message", message(version, status.message()));
        }
        if (status.timestamp() != null) {
            node.put("timestamp", status.timestamp().toString());
        }
        return node;
    }

    public static ObjectNode artifact(A2aVersion version, Artifact artifact) {
        ObjectNode node = JSON.objectNode().put("artifactId", artifact.artifactId());
        putIfSet(node, "name", artifact.name());
        ArrayNode parts = node.putArray("parts");
        artifact.parts().forEach(p -> parts.add(part(version, p)));
        return node;
    }

    /** A task; its history cut to the last {@code historyLength} messages when given. */
    public static ObjectNode task(A2aVersion version, Task task, Integer historyLength) {
        Task shown = task.withHistory(historyLength);
        ObjectNode node = JSON.objectNode();
        node.put("id", shown.id()).put("contextId", shown.contextId());
        node.set("status", status(version, shown.status()));
        if (!shown.artifacts().isEmpty()) {
            ArrayNode artifacts = node.putArray("artifacts");
            shown.artifacts().forEach(a -> artifacts.add(artifact(version, a)));
        }
        if (!shown.history().isEmpty()) {
            ArrayNode history = node.putArray("history");
            shown.history().forEach(m -> history.add(message(version, m)));
        }
        if (!shown.earlierStates().isEmpty()) {
            // what the task went through, in the task's metadata (neither version has a field for it)
            ArrayNode states = node.putObject("metadata").putObject("lango").putArray("stateHistory");
            shown.stateHistory().forEach(s -> states.add(status(version, s)));
        }
        if (version == A2aVersion.V0_3) {
            node.put("kind", "task");
        }
        return node;
    }

    /** The result of a send: 1.0 wraps the task ({@code {"task":…}}), 0.3 sends it bare. */
    public static JsonNode sendResult(A2aVersion version, Task task, Integer historyLength) {
        ObjectNode bare = task(version, task, historyLength);
        return version == A2aVersion.V1_0 ? JSON.objectNode().set("task", bare) : bare;
    }

    /** One event of a stream as the result of its JSON-RPC response. */
    public static JsonNode streamResult(A2aVersion version, TaskEvent event, Integer historyLength) {
        if (event instanceof TaskEvent.Snapshot snapshot) {
            return sendResult(version, snapshot.task(), historyLength);
        }
        ObjectNode node = JSON.objectNode();
        if (event instanceof TaskEvent.StatusUpdate update) {
            if (version == A2aVersion.V0_3) {
                node.put("kind", "status-update");
            }
            node.put("taskId", update.taskId()).put("contextId", update.contextId());
            node.set("status", status(version, update.status()));
            if (version == A2aVersion.V0_3) {
                return node.put("final", update.last());
            }
            return JSON.objectNode().set("statusUpdate", node);
        }
        TaskEvent.ArtifactUpdate update = (TaskEvent.ArtifactUpdate) event;
        if (version == A2aVersion.V0_3) {
            node.put("kind", "artifact-update");
        }
        node.put("taskId", update.taskId()).put("contextId", update.contextId());
        node.set("artifact", artifact(version, update.artifact()));
        if (update.append() || version == A2aVersion.V0_3) {
            node.put("append", update.append());
        }
        if (update.lastChunk() || version == A2aVersion.V0_3) {
            node.put("lastChunk", update.lastChunk());
        }
        return version == A2aVersion.V1_0 ? JSON.objectNode().set("artifactUpdate", node) : node;
    }

    private static void putIfSet(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    // ---- reading (either version) ----

    /** A part as either version writes it. */
    public static Part readPart(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a part must be an object such as {\"text\":…}");
        }
        String kind = node.path("kind").asText("");
        String mediaType = text(node, "mediaType");
        String filename = text(node, "filename");
        if (node.has("text") || kind.equals("text")) {
            if (!node.path("text").isTextual()) {
                throw new IllegalArgumentException("a text part needs a \"text\" string");
            }
            return new Part(node.get("text").asText(), null, null, null, filename, mediaType);
        }
        if (node.has("data") || kind.equals("data")) {
            JsonNode data = node.get("data");
            if (data == null || data.isNull()) {
                throw new IllegalArgumentException("a data part needs \"data\"");
            }
            return new Part(null, data, null, null, filename, mediaType == null ? "application/json" : mediaType);
        }
        if (node.has("url") || node.has("raw")) {
            return new Part(null, null, text(node, "url"), text(node, "raw"), filename, mediaType);
        }
        if (node.has("file") || kind.equals("file")) {
            JsonNode file = node.path("file");
            return new Part(null, null, text(file, "uri"), text(file, "bytes"), text(file, "name"), text(file, "mimeType"));
        }
        throw new IllegalArgumentException("a part must carry text, data or a file" + (kind.isEmpty() ? ""
                : " (kind \"" + kind + "\" is not one Lango reads)"));
    }

    /** A message as either version writes it; its role must be the user's or the agent's. */
    public static Message readMessage(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a message must be an object");
        }
        Message.Role role = role(node.get("role"));
        JsonNode parts = node.get("parts");
        if (parts == null || !parts.isArray()) {
            throw new IllegalArgumentException("a message needs \"parts\", an array");
        }
        List<Part> read = new ArrayList<>();
        for (JsonNode part : parts) {
            read.add(readPart(part));
        }
        return new Message(text(node, "messageId"), text(node, "contextId"), text(node, "taskId"), role, read);
    }

    private static Message.Role role(JsonNode role) {
        if (role != null && role.isIntegralNumber()) {
            if (role.asInt() == 1 || role.asInt() == 2) {
                return role.asInt() == 1 ? Message.Role.USER : Message.Role.AGENT;
            }
        } else if (role != null && role.isTextual()) {
            String name = role.asText().toUpperCase(Locale.ROOT).replaceFirst("^ROLE_", "");
            if (name.equals("USER") || name.equals("AGENT")) {
                return Message.Role.valueOf(name);
            }
        }
        throw new IllegalArgumentException("a message's role must be \"ROLE_USER\" or \"ROLE_AGENT\" (\"user\" or \"agent\" in 0.3), not "
                + (role == null ? "missing" : role.toString()));
    }

    public static Artifact readArtifact(JsonNode node) {
        List<Part> parts = new ArrayList<>();
        for (JsonNode part : node.path("parts")) {
            parts.add(readPart(part));
        }
        return new Artifact(node.path("artifactId").asText(""), text(node, "name"), parts);
    }

    public static Task.Status readStatus(JsonNode node) {
        JsonNode message = node.get("message");
        return new Task.Status(TaskState.read(node.get("state")),
                message == null || message.isNull() ? null : readMessage(message), instant(text(node, "timestamp")));
    }

    /** A task, bare or wrapped ({@code {"task":…}}). */
    public static Task readTask(JsonNode node) {
        JsonNode task = node.has("task") && node.get("task").isObject() ? node.get("task") : node;
        List<Artifact> artifacts = new ArrayList<>();
        task.path("artifacts").forEach(a -> artifacts.add(readArtifact(a)));
        List<Message> history = new ArrayList<>();
        task.path("history").forEach(m -> history.add(readMessage(m)));
        List<Task.Status> states = new ArrayList<>();
        task.path("metadata").path("lango").path("stateHistory").forEach(s -> states.add(readStatus(s)));
        Task.Status status = readStatus(task.path("status"));
        // the history's last entry is the current status
        List<Task.Status> earlier = states.isEmpty() ? List.of() : states.subList(0, states.size() - 1);
        return new Task(task.path("id").asText(null), task.path("contextId").asText(null), status, artifacts, history, earlier);
    }

    /** What a send or a stream event carries, in either version: a message, a task, or an update. */
    public static Object readResult(JsonNode result) {
        String kind = result.path("kind").asText("");
        if (result.has("message") && result.get("message").isObject() && !result.has("status")) {
            return readMessage(result.get("message"));
        }
        if (result.has("task") && result.get("task").isObject()) {
            return readTask(result.get("task"));
        }
        if (result.has("statusUpdate") || kind.equals("status-update")) {
            JsonNode update = result.has("statusUpdate") ? result.get("statusUpdate") : result;
            Task.Status status = readStatus(update.path("status"));
            return new TaskEvent.StatusUpdate(update.path("taskId").asText(null), update.path("contextId").asText(null), status,
                    update.path("final").asBoolean(status.state().terminal() || status.state().interrupted()));
        }
        if (result.has("artifactUpdate") || kind.equals("artifact-update")) {
            JsonNode update = result.has("artifactUpdate") ? result.get("artifactUpdate") : result;
            return new TaskEvent.ArtifactUpdate(update.path("taskId").asText(null), update.path("contextId").asText(null),
                    readArtifact(update.path("artifact")), update.path("append").asBoolean(false),
                    update.path("lastChunk").asBoolean(false));
        }
        if (kind.equals("message") || (kind.isEmpty() && result.has("parts") && result.has("role"))) {
            return readMessage(result);
        }
        if (kind.equals("task") || (kind.isEmpty() && result.has("status") && result.has("id"))) {
            return readTask(result);
        }
        throw new IllegalArgumentException("neither a message, a task nor a task update");
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Instant instant(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
