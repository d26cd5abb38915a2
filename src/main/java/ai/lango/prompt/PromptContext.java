package ai.lango.prompt;

/** What a context source may render for: whose session, and what the user just said. */
public record PromptContext(String userId, String sessionKey, String userMessage) {
}
