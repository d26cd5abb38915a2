package ai.lango.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.provider.ChatMessage;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.ToolDeclaration;
import ai.lango.session.TokenEstimator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The estimate of a call's input, for a provider that reports no usage, counts everything the call sends. */
class AsideCallsTest {

    private static ToolDeclaration tool(int i) {
        return new ToolDeclaration("mcp_files_tool_" + i, "Reads, lists or writes files of the workspace, tool number " + i,
                Map.of("type", "object", "properties", Map.of("path", Map.of("type", "string",
                        "description", "the file's path, relative to the workspace")), "required", List.of("path")));
    }

    @Test
    void theToolsOfferedAreCountedBesideTheMessages() {
        List<ChatMessage> messages = List.of(ChatMessage.user("What is in notes.txt?"),
                ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("c1", "fs_read", "{\"path\":\"notes.txt\"}"))));
        List<ToolDeclaration> tools = new ArrayList<>();
        for (int i = 0; i < 92; i++) {
            tools.add(tool(i));
        }
        long without = AsideCalls.estimatedInput(new ChatRequest("m", messages, List.of(), null, null), TokenEstimator::estimate);
        long with = AsideCalls.estimatedInput(new ChatRequest("m", messages, tools, null, null), TokenEstimator::estimate);

        assertEquals(TokenEstimator.estimate("What is in notes.txt?") + TokenEstimator.estimate("{\"path\":\"notes.txt\"}"), without,
                "the messages and their calls' arguments");
        long one = TokenEstimator.estimate(tools.get(0).name()) + TokenEstimator.estimate(tools.get(0).description());
        assertTrue(with - without > 92 * one, "each tool's name, description and schema: " + (with - without));
        assertTrue(with > 10 * without, "92 tools outweigh a short conversation many times: " + with + " vs " + without);
    }
}
