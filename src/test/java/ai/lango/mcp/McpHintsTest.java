package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** What a failed stdio server's last lines on stderr (or its command) tell the operator to do. */
class McpHintsTest {

    private static final Predicate<Path> NOWHERE = path -> false;
    private static final Predicate<Path> EVERYWHERE = path -> true;

    private static McpServerEntry entry(String body) {
        return McpConfigFile.parse("mcp.json", "{\"mcpServers\": {\"s\": " + body + "}}").servers().get(0);
    }

    private static Optional<String> hint(String body, Predicate<Path> onHost, String... stderr) {
        return McpHints.of(entry(body), List.of(stderr), onHost);
    }

    @Test
    void npmOrNodeReachingForTheNetworkInTheSandboxNamesNetworkTrue() {
        String[] npm = {"npm error code EAI_AGAIN", "npm error syscall getaddrinfo",
            "npm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org"};
        String said = hint("{\"command\": \"node\", \"args\": [\"a.js\"]}", NOWHERE, npm).orElseThrow();
        assertTrue(said.contains("\"network\": true"), said);
        assertTrue(hint("{\"command\": \"node\"}", NOWHERE, "Error: getaddrinfo ENOTFOUND api.example.com").orElseThrow()
                .contains("\"network\": true"));
        assertTrue(hint("{\"command\": \"uvx\", \"args\": [\"mcp-server-fetch\"]}", NOWHERE,
                "error: Failed to fetch: `https://pypi.org/simple/mcp-server-fetch/`").orElseThrow().contains("\"network\": true"));
        assertEquals(Optional.empty(), hint("{\"command\": \"node\", \"network\": true}", NOWHERE, npm),
                "with network, the sandbox is not why");
    }

    @Test
    void npxOrUvxWithoutNetworkNamesNetworkTrueEvenWhenItSaidNothing() {
        // npx without network retries for over a minute before it says a word: longer than initialize is waited for
        String said = hint("{\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]}", NOWHERE)
                .orElseThrow();
        assertTrue(said.contains("\"npx\" fetches its package") && said.contains("\"network\": true"), said);
        assertTrue(hint("{\"command\": \"/usr/local/bin/uvx\", \"args\": [\"mcp-server-time\"]}", NOWHERE).orElseThrow()
                .contains("\"uvx\""));
        assertEquals(Optional.empty(), hint("{\"command\": \"npx\", \"args\": [\"-y\", \"x\"], \"network\": true}", NOWHERE));
        assertEquals(Optional.empty(), hint("{\"command\": \"node\", \"args\": [\"server.js\"]}", NOWHERE));
    }

    @Test
    void aScriptOutsideTheSandboxNamesReadOnlyWithItsFolder() {
        String[] node = {"node:internal/modules/cjs/loader:1210", "  throw err;", "  ^", "",
            "Error: Cannot find module '/opt/tools/server/index.js'", "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
            "  code: 'MODULE_NOT_FOUND',"};
        String said = hint("{\"command\": \"node\", \"args\": [\"/opt/tools/server/index.js\"]}", EVERYWHERE, node).orElseThrow();
        assertTrue(said.contains("/opt/tools/server/index.js is on this machine but outside the sandbox")
                && said.contains("\"readOnly\": [\"/opt/tools/server\"]"), said);
        String missing = hint("{\"command\": \"node\", \"args\": [\"/opt/tools/server/index.js\"]}", NOWHERE, node).orElseThrow();
        assertTrue(missing.contains("not on this machine either"), "a path that is nowhere is a typo, not the sandbox: " + missing);
        assertTrue(hint("{\"command\": \"node\", \"args\": [\"/opt/t/s.js\"]}", EVERYWHERE, "Error: Cannot find module 'express'")
                .orElseThrow().contains("the module \"express\""), "a package's dependency: its installation goes in readOnly");
        assertTrue(hint("{\"command\": \"python3\", \"args\": [\"/srv/s.py\"]}", EVERYWHERE,
                "python3: can't open file '/srv/s.py': [Errno 2] No such file or directory").orElseThrow().contains("\"readOnly\""));
        assertTrue(hint("{\"command\": \"node\"}", EVERYWHERE, "Error: ENOENT: no such file or directory, open '/data/x.json'")
                .orElseThrow().contains("/data/x.json is on this machine"));
    }

    @Test
    void aCommandTheSandboxDoesNotHoldIsNamed() {
        String said = hint("{\"command\": \"mcp-thing\"}", NOWHERE, "bwrap: execvp mcp-thing: No such file or directory").orElseThrow();
        assertTrue(said.contains("\"mcp-thing\" is not in the sandbox") && said.contains("full path"), said);
    }

    @Test
    void aFolderAlreadyReadOnlyOrAnHttpServerGetsNoSandboxHint() {
        assertEquals(Optional.empty(), hint("{\"command\": \"node\", \"readOnly\": [\"/opt/tools\"]}", EVERYWHERE,
                "Error: Cannot find module '/opt/tools/server/index.js'").filter(h -> h.contains("readOnly")));
        assertEquals(Optional.empty(), hint("{\"url\": \"https://mcp.example.com/mcp\"}", NOWHERE, "getaddrinfo ENOTFOUND"));
        assertEquals(Optional.empty(), hint("{\"command\": \"node\"}", NOWHERE, "TypeError: x is not a function"));
    }
}
