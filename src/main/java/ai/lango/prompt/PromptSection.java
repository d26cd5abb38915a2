package ai.lango.prompt;

/**
 * The sections a system prompt is assembled from, in prompt order. Each is a Markdown file:
 * the defaults ship in the WAR (from config/prompts/), an operator's file of the same name in
 * {@code <data dir>/prompts/} replaces one.
 */
public enum PromptSection {
    IDENTITY("identity.md"),
    ORCHESTRATOR_IDENTITY("orchestrator-identity.md"),
    SAFETY("safety.md"),
    CONVERSATION("conversation.md"),
    TOOL_USAGE("tool-usage.md");

    private final String file;

    PromptSection(String file) {
        this.file = file;
    }

    public String file() {
        return file;
    }
}
