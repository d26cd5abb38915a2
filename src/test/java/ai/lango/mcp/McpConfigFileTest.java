package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.tool.Safety;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** mcp.json as Claude Desktop, Cursor and VS Code write it, and what is wrong in one, named by line and server. */
class McpConfigFileTest {

    @Test
    void theCommonFormatGivesStdioAndHttpServers() {
        McpConfigFile.Parsed parsed = McpConfigFile.parse("mcp.json", """
                {
                  "mcpServers": {
                    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
                              "env": {"TOKEN": "{{secret:FS}}"}, "safety": {"write_file": "dangerous"}, "users": ["ann"]},
                    "tickets": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer {{secret:T}}"}},
                    "legacy": {"url": "http://127.0.0.1:3001/sse"}
                  }
                }
                """);
        assertEquals(List.of(), parsed.problems());
        McpServerEntry files = parsed.servers().get(0);
        assertEquals(McpServerEntry.Transport.STDIO, files.transport());
        assertEquals(List.of("-y", "@modelcontextprotocol/server-filesystem", "/data"), files.args());
        assertEquals(Map.of("write_file", Safety.DANGEROUS), files.safety());
        assertTrue(files.offeredTo("ann") && !files.offeredTo("bob"));
        assertEquals(McpServerEntry.Transport.HTTP, parsed.servers().get(1).transport());
        assertEquals(McpServerEntry.Transport.SSE, parsed.servers().get(2).transport(), "a URL ending in /sse is the legacy transport");
        assertEquals(3, files.line());
    }

    @Test
    void aFileThatIsNotJsonIsOneProblemNamingItsLine() {
        McpConfigFile.Parsed parsed = McpConfigFile.parse("mcp.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n}");
        assertEquals(List.of(), parsed.servers());
        assertTrue(parsed.problems().get(0).startsWith("mcp.json line 3, column"), parsed.problems().toString());
    }

    @Test
    void aBrokenServerIsNamedWithItsLineAndTheOthersAreRead() {
        McpConfigFile.Parsed parsed = McpConfigFile.parse("mcp.json", """
                {"mcpServers": {
                  "good": {"command": "node", "args": ["server.js"]},
                  "both": {"command": "node", "url": "http://x"},
                  "ftp": {"url": "ftp://files.example.com"},
                  "bad name!": {"command": "node"},
                  "unsafe": {"command": "node", "safety": {"t": "harmless"}}
                }}
                """);
        assertEquals(List.of("good"), parsed.servers().stream().map(McpServerEntry::name).toList());
        assertEquals(4, parsed.problems().size(), parsed.problems().toString());
        assertTrue(parsed.problems().get(0).startsWith("mcp.json line 3, server \"both\": give either \"command\""), parsed.problems().get(0));
        assertTrue(parsed.problems().get(1).contains("line 4, server \"ftp\"") && parsed.problems().get(1).contains("http://"));
        assertTrue(parsed.problems().get(3).contains("accepted: safe, moderate, dangerous"), parsed.problems().get(3));
    }
}
