package ai.lango.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * How JSON-RPC messages go to and come from one MCP server: over a process's stdin and stdout, or
 * over HTTP. What a server sends — responses, its own requests, notifications — goes to the
 * consumer given to {@link #start}; a transport that ends (the process died, the stream broke for
 * good) says why to {@code ended}, once.
 */
interface McpTransport extends AutoCloseable {

    /** The largest message read from a server, in characters: a larger one is refused and the transport ends. */
    int MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

    void start(Consumer<JsonNode> inbound, Consumer<String> ended) throws IOException;

    /** Sends one message; for HTTP, what the server answers to it arrives through {@code inbound}. */
    void send(JsonNode message) throws IOException;

    /** The last lines the server's process wrote on stderr (a stdio server's; none for HTTP), secrets masked. */
    default java.util.List<String> stderr() {
        return java.util.List.of();
    }

    /** Once initialized: the protocol version the server agreed to (HTTP sends it as a header). */
    default void agreed(String protocolVersion) {
    }

    @Override
    void close();
}
