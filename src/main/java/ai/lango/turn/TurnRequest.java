package ai.lango.turn;

/** One user message for one session, and whether the answer should stream as it is written. */
public record TurnRequest(String userId, String sessionKey, String message, boolean streaming) {
}
