package ai.lango.mcp;

import ai.lango.tool.Safety;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One server of {@code mcp.json}: how to reach it — a command over stdio, or a URL over streamable
 * HTTP (or legacy SSE) — and what Lango adds: who may use it, the safety of its tools, whether its
 * process reaches the network, and how it answers a server's request for input.
 *
 * @param name        the key in {@code mcpServers}; tools are offered as {@code mcp_<name>_<tool>}
 * @param command     the program of a stdio server
 * @param args        its arguments
 * @param env         its environment (besides PATH, HOME, LANG); values may hold {@code {{secret:NAME}}}
 * @param cwd         its working directory inside the user's workspace ("" for the workspace itself)
 * @param url         the endpoint of an HTTP server
 * @param transport   how to talk to it
 * @param headers     HTTP headers sent with every request; values may hold {@code {{secret:NAME}}}
 * @param users       who may use it (empty: every user)
 * @param safety      a tool's safety as the operator sets it, by the server's tool name
 * @param readOnly    folders a stdio server reads besides the system's (its installation: a node_modules)
 * @param network     whether a stdio server's process reaches the network
 * @param elicitation how a request of the server for a person's input is answered
 * @param line        where the entry starts in the file, for messages
 */
public record McpServerEntry(String name, Optional<String> command, List<String> args, Map<String, String> env, String cwd,
                             Optional<URI> url, Transport transport, Map<String, String> headers, List<String> users,
                             Map<String, Safety> safety, List<String> readOnly, boolean network, Elicitation elicitation,
                             int line) {

    /** How Lango talks to a server. */
    public enum Transport { STDIO, HTTP, SSE }

    /** How a server's request for input (elicitation) is answered: declined, or accepted with its form's defaults. */
    public enum Elicitation { DECLINE, DEFAULTS }

    public McpServerEntry {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        headers = Map.copyOf(headers);
        users = List.copyOf(users);
        safety = Map.copyOf(safety);
        readOnly = List.copyOf(readOnly);
    }

    /** Whether {@code userId} may use this server. */
    public boolean offeredTo(String userId) {
        return users.isEmpty() || users.contains(userId);
    }

    /** Whether a process runs per user (a stdio server: in the user's workspace, with the user's secrets). */
    public boolean perUserProcess() {
        return transport == Transport.STDIO;
    }
}
