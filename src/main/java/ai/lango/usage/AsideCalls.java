package ai.lango.usage;

import ai.lango.provider.ChatRequest;
import ai.lango.provider.Completion;
import ai.lango.provider.StreamEvent;

/**
 * The usage of a model call made aside from any turn (the observer's, the reflector's, the graph's extraction),
 * as {@link Completion} reports it: counted and stored for its user and session under its purpose, estimated
 * by {@code estimate} (the session's token estimate) when the provider reported none.
 */
public final class AsideCalls {

    private AsideCalls() {
    }

    /** What {@link Completion#complete} tells, recorded in {@code ledger} (nothing when there is none). */
    public static Completion.Used recordedIn(UsageLedger ledger, String userId, String sessionKey, String purpose, String provider,
                                             java.util.function.ToLongFunction<String> estimate) {
        if (ledger == null) {
            return (request, answer, reported) -> { };
        }
        return (ChatRequest request, String answer, StreamEvent.Usage reported) -> {
            long input = reported != null ? reported.inputTokens()
                    : request.messages().stream().mapToLong(m -> estimate.applyAsLong(m.content())).sum();
            long output = reported != null ? reported.outputTokens() : estimate.applyAsLong(answer);
            ledger.madeAside(ledger.call(userId, sessionKey, purpose, provider, request.model(), purpose, input, output,
                    reported == null ? 0 : reported.cachedTokens(), reported == null));
        };
    }
}
