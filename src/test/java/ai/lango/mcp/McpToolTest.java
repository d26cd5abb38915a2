package ai.lango.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.tool.Safety;
import ai.lango.tool.ToolException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How an MCP server's tool is named, classed and read back for the model. */
class McpToolTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static McpProtocol.ToolInfo tool(String name, String annotations) throws Exception {
        return new McpProtocol.ToolInfo(name, null, "d", JSON.readTree("{\"type\":\"object\"}"), JSON.readTree(annotations));
    }

    private static McpServerEntry entry(Map<String, Safety> safety) {
        return new McpServerEntry("s", Optional.of("node"), List.of(), Map.of(), "", Optional.empty(), McpServerEntry.Transport.STDIO,
                Map.of(), List.of(), safety, List.of(), false, McpServerEntry.Elicitation.DECLINE, 1);
    }

    @Test
    void aToolIsNamedAfterItsServerWithOutsideCharactersReplacedAndAtMost64() {
        assertEquals("mcp_everything_get-sum", McpTool.nameOf("everything", "get-sum"));
        assertEquals("mcp_files_read_text_file", McpTool.nameOf("files", "read.text file"));
        assertEquals(64, McpTool.nameOf("s", "x".repeat(100)).length());
    }

    @Test
    void theOperatorsSafetyWinsElseTheAnnotationsSay() throws Exception {
        assertEquals(Safety.SAFE, McpTool.safetyOf(entry(Map.of()), tool("echo", "{\"readOnlyHint\":true}")));
        assertEquals(Safety.DANGEROUS, McpTool.safetyOf(entry(Map.of()), tool("rm", "{\"destructiveHint\":true}")));
        assertEquals(Safety.MODERATE, McpTool.safetyOf(entry(Map.of()), tool("write", "{}")));
        assertEquals(Safety.DANGEROUS, McpTool.safetyOf(entry(Map.of("echo", Safety.DANGEROUS)), tool("echo", "{\"readOnlyHint\":true}")));
    }

    @Test
    void aToolThatSaysItIsBothReadOnlyAndDestructiveIsDangerous() throws Exception {
        // the server's hints contradict each other: the one that asks a person first wins
        assertEquals(Safety.DANGEROUS, McpTool.safetyOf(entry(Map.of()), tool("wipe", "{\"readOnlyHint\":true,\"destructiveHint\":true}")));
        assertEquals(Safety.SAFE, McpTool.safetyOf(entry(Map.of()), tool("look", "{\"readOnlyHint\":true,\"destructiveHint\":false}")));
    }

    @Test
    void whatTheServerAnswersBecomesWhatAModelCanRead() throws Exception {
        JsonNode result = JSON.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"hello\"},"
                + "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"AAAA\"},"
                + "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///a.txt\",\"text\":\"inside\"}},"
                + "{\"type\":\"resource_link\",\"uri\":\"file:///b\",\"name\":\"b\"}],\"structuredContent\":{\"sum\":5}}");
        Map<String, Object> readable = McpTool.readable(result);
        assertEquals("hello\n[image image/png, 3 bytes]\n[resource file:///a.txt]\ninside\n[link file:///b b]", readable.get("text"));
        assertEquals(Map.of("sum", 5), readable.get("structured"));
        ToolException error = assertThrows(ToolException.class, () -> McpTool.readable(JSON.readTree(
                "{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"no such file\"}]}")));
        assertEquals("no such file", error.getMessage());
    }

    @Test
    void aSchemaThatIsNotAnObjectBecomesAnObjectOfAnything() throws Exception {
        assertEquals(Map.of("type", "object", "properties", Map.of()), McpTool.schema(JSON.readTree("{\"type\":\"string\"}")));
        assertEquals("object", McpTool.schema(JSON.readTree("{\"properties\":{\"a\":{}}}")).get("type"));
        String huge = "x".repeat(McpTool.MAX_RESULT_CHARS + 10);
        assertTrue(String.valueOf(McpTool.readable(JSON.readTree("{\"content\":[{\"type\":\"text\",\"text\":\"" + huge + "\"}]}"))
                .get("text")).endsWith("characters]"));
    }
}
