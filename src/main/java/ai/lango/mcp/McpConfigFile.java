package ai.lango.mcp;

import ai.lango.tool.Safety;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads {@code mcp.json} in the {@code mcpServers} format that Claude Desktop, Cursor and VS Code
 * share ({@code servers} too, VS Code's spelling): {@code {"mcpServers": {"<name>": {"command",
 * "args", "env", "cwd"} | {"url", "headers", "type"}}}}, plus what Lango reads besides ({@code users},
 * {@code safety}, {@code readOnly}, {@code network}, {@code elicitation}). A file that is not JSON is one problem naming
 * its line; a server entry that is wrong is a problem naming the file, its line and the server, and
 * the other servers are read all the same.
 */
public final class McpConfigFile {

    /** A server name that stands in a tool name and in a URL path. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,47}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private McpConfigFile() {
    }

    /**
     * The servers a file names, and what is wrong in it.
     *
     * @param readable whether the file is an {"mcpServers": {…}} document as a whole; one that is not (half
     *                 saved, say) names no server, and the servers running go on until it reads again
     */
    public record Parsed(List<McpServerEntry> servers, List<String> problems, boolean readable) {
        public Parsed {
            servers = List.copyOf(servers);
            problems = List.copyOf(problems);
        }

        public Parsed(List<McpServerEntry> servers, List<String> problems) {
            this(servers, problems, true);
        }

        static final Parsed EMPTY = new Parsed(List.of(), List.of());

        static Parsed unreadable(String problem) {
            return new Parsed(List.of(), List.of(problem), false);
        }
    }

    /** The file's servers; no file is no servers. */
    public static Parsed read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Parsed.EMPTY;
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            return Parsed.unreadable(file + ": cannot be read (" + e.getMessage() + ")");
        }
        return parse(file.getFileName().toString(), text);
    }

    /** The servers {@code text} names; {@code shown} is how messages name the file. */
    public static Parsed parse(String shown, String text) {
        JsonNode root;
        Map<String, Integer> lines;
        try {
            root = JSON.readTree(text);
            lines = serverLines(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            return Parsed.unreadable(shown + " line " + (at == null ? "?" : at.getLineNr()) + ", column "
                    + (at == null ? "?" : at.getColumnNr()) + ": not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            return Parsed.unreadable(shown + ": cannot be read (" + e.getMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            return Parsed.unreadable(shown + " line 1: expected an object {\"mcpServers\": {…}}");
        }
        JsonNode servers = root.has("mcpServers") ? root.get("mcpServers") : root.path("servers");
        if (servers.isMissingNode()) {
            return Parsed.unreadable(shown + " line 1: no \"mcpServers\" object");
        }
        if (!servers.isObject()) {
            return Parsed.unreadable(shown + ": \"mcpServers\" must be an object of servers by name");
        }
        List<McpServerEntry> parsed = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = servers.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> server = it.next();
            int line = lines.getOrDefault(server.getKey(), 0);
            try {
                parsed.add(entry(server.getKey(), server.getValue(), line));
            } catch (IllegalArgumentException e) {
                problems.add(shown + " line " + line + ", server \"" + server.getKey() + "\": " + e.getMessage());
            }
        }
        return new Parsed(parsed, problems);
    }

    /** The line each server's name stands on, under mcpServers (or servers). */
    private static Map<String, Integer> serverLines(String text) throws IOException {
        Map<String, Integer> lines = new HashMap<>();
        try (JsonParser parser = JSON.getFactory().createParser(text)) {
            int depth = 0;
            boolean inServers = false;
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                    depth++;
                } else if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                    depth--;
                    if (depth < 2) {
                        inServers = false;
                    }
                } else if (token == JsonToken.FIELD_NAME) {
                    if (depth == 1 && (parser.currentName().equals("mcpServers") || parser.currentName().equals("servers"))) {
                        inServers = true;
                    } else if (depth == 2 && inServers) {
                        lines.put(parser.currentName(), parser.currentLocation().getLineNr());
                    }
                }
            }
        }
        return lines;
    }

    private static McpServerEntry entry(String name, JsonNode json, int line) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("the name must be 1 to 48 letters, digits, '_' or '-' (it becomes part of"
                    + " the tool names mcp_" + name + "_…)");
        }
        if (!json.isObject()) {
            throw new IllegalArgumentException("expected an object with \"command\" or \"url\"");
        }
        Optional<String> command = text(json, "command");
        Optional<String> url = text(json, "url");
        if (command.isPresent() == url.isPresent()) {
            throw new IllegalArgumentException("give either \"command\" (a stdio server) or \"url\" (an HTTP server), not "
                    + (command.isPresent() ? "both" : "neither"));
        }
        String type = text(json, "type").or(() -> text(json, "transport")).orElse("").toLowerCase(Locale.ROOT);
        McpServerEntry.Transport transport;
        Optional<URI> uri = Optional.empty();
        if (command.isPresent()) {
            if (!type.isEmpty() && !type.equals("stdio")) {
                throw new IllegalArgumentException("\"type\": \"" + type + "\" needs a \"url\", not a \"command\"");
            }
            transport = McpServerEntry.Transport.STDIO;
        } else {
            URI parsed;
            try {
                parsed = URI.create(url.get());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"url\" is not a URL: " + url.get());
            }
            if (parsed.getHost() == null || !List.of("http", "https").contains(String.valueOf(parsed.getScheme()).toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("\"url\" must be an http:// or https:// URL with a host, not " + url.get());
            }
            uri = Optional.of(parsed);
            transport = switch (type) {
                case "", "http", "streamable-http", "streamablehttp", "streamable_http" ->
                        type.isEmpty() && parsed.getPath() != null && parsed.getPath().endsWith("/sse")
                                ? McpServerEntry.Transport.SSE : McpServerEntry.Transport.HTTP;
                case "sse" -> McpServerEntry.Transport.SSE;
                default -> throw new IllegalArgumentException("\"type\": \"" + type + "\" is none of stdio, http, sse");
            };
        }
        String cwd = text(json, "cwd").orElse("");
        Map<String, Safety> safety = new LinkedHashMap<>();
        strings(json, "safety").forEach((tool, level) -> {
            try {
                safety.put(tool, Safety.valueOf(level.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"safety\" of \"" + tool + "\" is \"" + level + "\"; accepted: safe, moderate,"
                        + " dangerous");
            }
        });
        String elicitation = text(json, "elicitation").orElse("decline").toLowerCase(Locale.ROOT);
        if (!List.of("decline", "defaults").contains(elicitation)) {
            throw new IllegalArgumentException("\"elicitation\" is \"" + elicitation + "\"; accepted: decline, defaults");
        }
        JsonNode network = json.path("network");
        if (!network.isMissingNode() && !network.isBoolean()) {
            throw new IllegalArgumentException("\"network\" must be true or false");
        }
        List<String> readOnly = list(json, "readOnly");
        for (String folder : readOnly) {
            if (!java.nio.file.Path.of(folder).isAbsolute()) {
                throw new IllegalArgumentException("\"readOnly\": \"" + folder + "\" is not an absolute path");
            }
        }
        return new McpServerEntry(name, command, list(json, "args"), strings(json, "env"), cwd, uri, transport,
                strings(json, "headers"), list(json, "users"), safety, readOnly, network.asBoolean(false),
                elicitation.equals("defaults") ? McpServerEntry.Elicitation.DEFAULTS : McpServerEntry.Elicitation.DECLINE, line);
    }

    private static Optional<String> text(JsonNode json, String field) {
        JsonNode node = json.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a non-empty string");
        }
        return Optional.of(node.asText());
    }

    private static List<String> list(JsonNode json, String field) {
        JsonNode node = json.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("\"" + field + "\" must be an array of strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw new IllegalArgumentException("\"" + field + "\" must be an array of strings");
            }
            values.add(item.asText());
        }
        return values;
    }

    private static Map<String, String> strings(JsonNode json, String field) {
        JsonNode node = json.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("\"" + field + "\" must be an object of strings");
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> value = it.next();
            if (!value.getValue().isValueNode() || value.getValue().isNull()) {
                throw new IllegalArgumentException("\"" + field + "\" of \"" + value.getKey() + "\" must be a string");
            }
            values.put(value.getKey(), value.getValue().asText());
        }
        return values;
    }
}
