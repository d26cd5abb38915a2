package ai.lango.turn;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One model call's usage: whose (user, session; null session for calls outside one), which agent or background
 * job ({@code purpose}: agent, observer, reflector, graph, eval), which provider and model, the tokens as the provider
 * reported them ({@code estimated}: it reported none, so they were estimated), and its cost by the price table.
 */
public record ModelCall(String userId, String sessionKey, String agent, String provider, String model, String purpose,
                        long inputTokens, long outputTokens, long cachedTokens, boolean estimated, BigDecimal costUsd,
                        Instant at) {

    /** The purpose of the agent's own calls (the orchestrator's and sub-agents'). */
    public static final String AGENT = "agent";
    /** The purpose of an eval run's judge (final_response_match_v2), counted as the user who runs the eval. */
    public static final String EVAL = "eval";

    public long tokens() {
        return inputTokens + outputTokens;
    }
}
