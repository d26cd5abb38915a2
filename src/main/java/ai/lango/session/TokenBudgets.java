package ai.lango.session;

import java.util.Locale;

/** History token budgets: about half of each model family's context window. */
public final class TokenBudgets {

    public static final int DEFAULT_BUDGET = 32000;

    private TokenBudgets() {
    }

    /** By model family, the lower-cased name checked in this order; unknown models get the default. */
    public static int forModel(String model) {
        if (model == null) {
            return DEFAULT_BUDGET;
        }
        String name = model.toLowerCase(Locale.ROOT);
        if (name.contains("claude")) {
            return 100000;
        }
        if (name.contains("gemini")) {
            return 200000;
        }
        if (name.contains("gpt-4o") || name.contains("gpt-4-turbo")) {
            return 64000;
        }
        if (name.contains("gpt-4")) {
            return 32000;
        }
        if (name.contains("gpt-3.5")) {
            return 8000;
        }
        return DEFAULT_BUDGET;
    }

    /** A configured budget (&gt; 0) wins; otherwise the model family's. */
    public static int effective(int configured, String model) {
        return configured > 0 ? configured : forModel(model);
    }
}
