package ai.lango.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The orchestrator's prompt isolation and the operator's overrides. */
class PromptBuilderTest {

    private final PromptBuilder prompts = PromptBuilder.of(section -> "<" + section.name() + ">");

    @Test
    void orchestratorPromptReplacesIdentityAndDropsToolUsage() {
        String prompt = prompts.orchestrator("RULES");
        assertTrue(prompt.startsWith("<ORCHESTRATOR_IDENTITY>"));
        assertFalse(prompt.contains("<IDENTITY>"));
        assertFalse(prompt.contains("<TOOL_USAGE>"));
        assertTrue(prompt.contains("<SAFETY>") && prompt.contains("<CONVERSATION>") && prompt.endsWith("RULES"));
    }

    @Test
    void singleAgentPromptKeepsEverySectionIncludingIdentityAndToolUsage() {
        assertEquals("<IDENTITY>\n\n<SAFETY>\n\n<CONVERSATION>\n\n<TOOL_USAGE>", prompts.singleAgent("file operations"));
    }

    @Test
    void theIdentityNamesOnlyWhatTheEnabledToolsDo() {
        PromptBuilder bundled = PromptBuilder.load(null);
        String withFiles = bundled.singleAgent("file operations, information search");
        assertTrue(withFiles.contains("With your tools you can act on the user's behalf: file operations, information search."),
                withFiles);
        assertFalse(withFiles.contains("run commands") || withFiles.contains("{tools}"), "exec is off: no commands");
        assertTrue(bundled.singleAgent("").contains("You have no tools in this conversation"));
    }

    @Test
    void subAgentGetsToolUsageOnlyWithTools() {
        assertTrue(prompts.subAgent("ROLE", true).contains("<TOOL_USAGE>"));
        assertFalse(prompts.subAgent("ROLE", false).contains("<TOOL_USAGE>"));
    }

    @Test
    void bundledSectionsShipWithTheBuild() {
        PromptBuilder bundled = PromptBuilder.load(null);
        for (PromptSection section : PromptSection.values()) {
            assertFalse(bundled.section(section).isBlank(), section.file());
        }
    }

    @Test
    void operatorFileReplacesABundledSection(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("safety.md"), "  Our own safety rules.\n");
        PromptBuilder loaded = PromptBuilder.load(dir);
        assertEquals("Our own safety rules.", loaded.section(PromptSection.SAFETY));
        assertEquals(PromptBuilder.load(null).section(PromptSection.IDENTITY), loaded.section(PromptSection.IDENTITY));
    }

    @Test
    void bundledOrchestratorIdentityNamesNoToolCategory() {
        String identity = PromptBuilder.load(null).section(PromptSection.ORCHESTRATOR_IDENTITY).toLowerCase();
        for (String word : new String[] {"exec", "browser", "crypto", "fs_", "shell"}) {
            assertFalse(identity.contains(word), word);
        }
    }
}
