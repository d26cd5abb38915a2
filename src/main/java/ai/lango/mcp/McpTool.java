package ai.lango.mcp;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One tool of an MCP server, made at run time: offered as {@code mcp_<server>_<tool>} with the
 * server's description and input schema, the safety its entry gives it (or its annotations say:
 * {@code destructiveHint} dangerous, even with {@code readOnlyHint}; else {@code readOnlyHint} safe;
 * otherwise moderate), and a call that goes to that server for the caller's user. What the server
 * answers becomes what a model can read:
 * text as text, images, audio and binary resources described, embedded text resources inlined,
 * structured content as JSON, an error result as the tool error it is.
 */
final class McpTool extends DeclaredTool {

    /** The characters a tool name may have (the providers' rule); others become "_". */
    private static final Pattern OUTSIDE_NAME = Pattern.compile("[^A-Za-z0-9_-]");
    static final int MAX_NAME = 64;
    /** The most text of one result kept for the model, before the agent's own limit. */
    static final int MAX_RESULT_CHARS = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String server;
    private final String serverTool;
    private final McpServers servers;
    private final Duration timeout;

    McpTool(String name, String server, McpProtocol.ToolInfo tool, Safety safety, McpServers servers, Duration timeout) {
        super(ToolFamily.MCP, name, safety, description(server, tool), schema(tool.inputSchema()));
        this.server = server;
        this.serverTool = tool.name();
        this.servers = servers;
        this.timeout = timeout;
    }

    /** mcp_<server>_<tool>, outside characters replaced, at most 64 characters. */
    static String nameOf(String server, String tool) {
        String name = OUTSIDE_NAME.matcher("mcp_" + server + "_" + tool).replaceAll("_");
        return name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
    }

    /**
     * The safety a server's tool gets: the operator's word, else what its annotations say — destructive first, so
     * that a tool that says it is both read-only and destructive waits for a person.
     */
    static Safety safetyOf(McpServerEntry entry, McpProtocol.ToolInfo tool) {
        Safety set = entry.safety().get(tool.name());
        if (set != null) {
            return set;
        }
        if (tool.annotations().path("destructiveHint").asBoolean(false)) {
            return Safety.DANGEROUS;
        }
        return tool.annotations().path("readOnlyHint").asBoolean(false) ? Safety.SAFE : Safety.MODERATE;
    }

    private static String description(String server, McpProtocol.ToolInfo tool) {
        String text = tool.description().isBlank() ? "The tool " + tool.name() : tool.description().strip();
        return "[MCP server " + server + "] " + (text.length() > 2000 ? text.substring(0, 2000) + "…" : text);
    }

    /** The server's input schema, when it is an object schema; else an object of anything. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> schema(JsonNode inputSchema) {
        if (inputSchema != null && inputSchema.isObject() && "object".equals(inputSchema.path("type").asText("object"))) {
            Map<String, Object> schema = JSON.convertValue(inputSchema, Map.class);
            schema.put("type", "object");
            schema.putIfAbsent("properties", Map.of());
            return schema;
        }
        return new LinkedHashMap<>(Map.of("type", "object", "properties", Map.of()));
    }

    String server() {
        return server;
    }

    String serverTool() {
        return serverTool;
    }

    /** Where a call's arguments go: an HTTP server's host, anywhere from a stdio server with network, else nowhere. */
    @Override
    public Optional<String> destination(Map<String, Object> args, Caller caller) {
        return servers.destinationOf(server);
    }

    @Override
    public Optional<Duration> timeout() {
        return Optional.of(timeout.plusSeconds(5)); // the server's own deadline comes first, then cancels it there
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
        return readable(servers.call(server, serverTool, args, caller));
    }

    /** What a model can read of a tool's result. */
    static Map<String, Object> readable(JsonNode result) throws ToolException {
        StringBuilder text = new StringBuilder();
        for (JsonNode block : result.path("content")) {
            if (text.length() > 0) {
                text.append('\n');
            }
            String type = block.path("type").asText("");
            switch (type) {
                case "text" -> text.append(block.path("text").asText(""));
                case "image", "audio" -> text.append('[').append(type).append(' ').append(block.path("mimeType").asText("?"))
                        .append(", ").append(block.path("data").asText("").length() * 3 / 4).append(" bytes]");
                case "resource" -> {
                    JsonNode resource = block.path("resource");
                    text.append("[resource ").append(resource.path("uri").asText("")).append("]");
                    if (resource.has("text")) {
                        text.append('\n').append(resource.path("text").asText(""));
                    } else if (resource.has("blob")) {
                        text.append(' ').append(resource.path("mimeType").asText("?")).append(", ")
                                .append(resource.path("blob").asText("").length() * 3 / 4).append(" bytes");
                    }
                }
                case "resource_link" -> text.append("[link ").append(block.path("uri").asText("")).append(' ')
                        .append(block.path("name").asText("")).append(']');
                default -> text.append("[").append(type.isEmpty() ? "content" : type).append("]");
            }
            if (text.length() > MAX_RESULT_CHARS) {
                break;
            }
        }
        String shown = text.length() > MAX_RESULT_CHARS ? text.substring(0, MAX_RESULT_CHARS) + "\n[… cut at "
                + MAX_RESULT_CHARS + " characters]" : text.toString();
        if (result.path("isError").asBoolean(false)) {
            throw new ToolException(shown.isBlank() ? "the MCP server reports an error" : shown);
        }
        Map<String, Object> readable = new LinkedHashMap<>();
        readable.put("text", shown);
        if (result.has("structuredContent") && !result.get("structuredContent").isNull()) {
            String structured = result.get("structuredContent").toString();
            readable.put("structured", structured.length() > MAX_RESULT_CHARS ? structured.substring(0, MAX_RESULT_CHARS)
                    : JSON.convertValue(result.get("structuredContent"), Object.class));
        }
        return readable;
    }

    /** The names of the tools one server's tool list gives, with the clashes said. */
    static String describeClash(String name, String first, String second) {
        return "the MCP tool name " + name + " stands for two tools: " + first + " and " + second + " (the second is left"
                + " out); rename a server in mcp.json";
    }
}
