package ai.lango.tool;

/** Who calls a tool: the user and the session of the turn, for tools whose answer depends on them. */
public record Caller(String userId, String sessionKey) {
}
