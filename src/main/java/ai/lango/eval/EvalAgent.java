package ai.lango.eval;

import ai.lango.turn.TurnEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** The agent an eval run replays cases against, as configured now (the engine, through the eval edge). */
public interface EvalAgent {

    /** One turn of {@code userId} in {@code sessionKey}: its events to {@code events}, its answer when it ends. */
    CompletableFuture<String> turn(String userId, boolean admin, String sessionKey, String message, Consumer<TurnEvent> events);

    /** Answers the request for approval {@code approvalId} and resumes the turn that asked. */
    CompletableFuture<String> answer(String userId, boolean admin, String approvalId, boolean approved, Consumer<TurnEvent> events);

    /** Stops the turn running in the session, if one is. */
    void stop(String userId, String sessionKey);

    /** What the agent runs with now: provider, model, a hash of its prompts, its agents and tools. */
    Map<String, Object> configuration();

    /** What the model calls of these sessions used: input and output tokens and the cost in US dollars. */
    Map<String, Object> usage(String userId, List<String> sessionKeys);

    /** The judge's answer to one question (final_response_match_v2), counted as the user's. */
    String judge(String userId, String sessionKey, String instruction, String question);
}
