package ai.lango.adk.runner;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The messages a run is retried with, and how the errors that call for them are recognised. */
final class Corrections {

    /** ADK for Go says "failed to find agent: X", ADK for Java "Agent not found: X". */
    private static final Pattern UNKNOWN_AGENT = Pattern.compile(
            "(?:failed to find agent|Agent not found): ?\"?([^\"\\s,;]+)");

    /** A learned fix is applied only above this confidence: a lower bar applied fixes that were guesses. */
    static final double FIX_CONFIDENCE_THRESHOLD = 0.7;

    private Corrections() {
    }

    /** The agent name a hallucinated transfer asked for, if the error is one. */
    static Optional<String> hallucinatedAgent(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t.getMessage() != null) {
                Matcher matcher = UNKNOWN_AGENT.matcher(t.getMessage());
                if (matcher.find()) {
                    return Optional.of(matcher.group(1));
                }
            }
        }
        return Optional.empty();
    }

    static String unknownAgent(String name, List<String> validAgents) {
        return "[System: Agent \"" + name + "\" does not exist. Valid agents: " + String.join(", ", validAgents)
                + ". Please retry using one of the valid agent names listed above.]";
    }

    static String learnedFix(String error, String fix) {
        return "[System: Previous action failed with: " + error + ". Suggested fix: " + fix + ". Please retry.]";
    }
}
