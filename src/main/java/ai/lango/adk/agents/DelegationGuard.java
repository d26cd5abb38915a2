package ai.lango.adk.agents;

import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.InvocationContext;
import com.google.adk.plugins.BasePlugin;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.ToolContext;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Guard rails on agent transfer, checked before ADK runs its transfer tool:
 * <ul>
 * <li>A transfer to an agent that does not exist would be saved as a success and then fail the
 * run. Here it gets an error result naming the agent, and the run
 * ends on it; {@link LangoRunner} retries once with a correction naming the valid agents.</li>
 * <li>Delegation rounds (transfers from the root to another agent in one invocation) are counted
 * here: the session's events cannot tell, as ADK appends a transfer's events only after the agent
 * it transferred to has started. Past the limit a transfer is refused and the root answers with
 * what it has.</li>
 * </ul>
 */
public final class DelegationGuard extends BasePlugin {

    public static final String TRANSFER_TOOL = "transfer_to_agent";
    static final String AGENT_ARGUMENT = "agent_name";
    /** ADK for Java's own wording, which {@link Corrections} recognises. */
    public static final String UNKNOWN_AGENT = "Agent not found: ";

    private final int maxDelegationRounds;
    /** Rounds per invocation id; a run that fails skips afterRunCallback, so entries also expire. */
    private final LoadingCache<String, AtomicInteger> rounds = CacheBuilder.newBuilder()
            .expireAfterAccess(Duration.ofHours(1)).maximumSize(10_000)
            .build(CacheLoader.from(() -> new AtomicInteger()));

    public DelegationGuard(int maxDelegationRounds) {
        super("lango-delegation-guard");
        this.maxDelegationRounds = maxDelegationRounds;
    }

    @Override
    public Maybe<Map<String, Object>> beforeToolCallback(BaseTool tool, Map<String, Object> args, ToolContext context) {
        if (!TRANSFER_TOOL.equals(tool.name())) {
            return Maybe.empty();
        }
        String target = String.valueOf(args.get(AGENT_ARGUMENT));
        BaseAgent root = context.invocationContext().agent().rootAgent();
        if (root.findAgent(target).isEmpty()) {
            // The response event becomes final: the flow stops here instead of calling the model again.
            context.setActions(context.eventActions().toBuilder().skipSummarization(true).build());
            return Maybe.just(Map.of("error", UNKNOWN_AGENT + target));
        }
        boolean delegation = context.agentName().equals(root.name()) && !target.equals(root.name());
        if (delegation && rounds.getUnchecked(context.invocationId()).incrementAndGet() > maxDelegationRounds) {
            return Maybe.just(Map.of("error", "the delegation round limit (" + maxDelegationRounds
                    + ") is reached: do not delegate again; answer the user now with what you have"));
        }
        return Maybe.empty();
    }

    @Override
    public Completable afterRunCallback(InvocationContext context) {
        rounds.invalidate(context.invocationId());
        return Completable.complete();
    }
}
