package ai.lango.mcp;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Lango's MCP client as the official conformance suite runs a client: {@code conformance client
 * --command "java … ai.lango.mcp.ConformanceClient" --scenario <name>} starts a test server, sets
 * MCP_CONFORMANCE_SCENARIO and passes the server's URL as the last argument. The client does what
 * Lango does with a server: initializes, lists the tools and calls them (each with numbers for its
 * number parameters), answering elicitation with its form's defaults where the scenario asks.
 */
public final class ConformanceClient {

    private ConformanceClient() {
    }

    public static void main(String[] args) throws Exception {
        String scenario = System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", "");
        URI url = URI.create(args[args.length - 1]);
        McpServerEntry.Elicitation elicitation = scenario.startsWith("elicitation")
                ? McpServerEntry.Elicitation.DEFAULTS : McpServerEntry.Elicitation.DECLINE;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        McpSession.Listener quiet = new McpSession.Listener() {
            @Override
            public void toolsChanged() {
            }

            @Override
            public void ended(String why) {
                System.err.println("ended: " + why);
            }
        };
        try (McpSession session = new McpSession("conformance", new HttpTransport("conformance", url, Map.of(), http),
                elicitation, quiet)) {
            System.out.println("protocol " + session.initialize(Duration.ofSeconds(20)));
            if (scenario.equals("initialize")) {
                return;
            }
            List<McpProtocol.ToolInfo> tools = session.listTools(Duration.ofSeconds(20));
            for (McpProtocol.ToolInfo tool : tools) {
                Map<String, Object> arguments = new java.util.LinkedHashMap<>();
                tool.inputSchema().path("properties").fields().forEachRemaining(p -> {
                    String type = p.getValue().path("type").asText("string");
                    arguments.put(p.getKey(), type.equals("number") || type.equals("integer") ? (Object) 2 : "x");
                });
                System.out.println(tool.name() + " -> " + session.callTool(tool.name(), arguments, Duration.ofSeconds(20), null));
            }
        }
        System.exit(0);
    }
}
