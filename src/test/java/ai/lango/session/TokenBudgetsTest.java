package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TokenBudgetsTest {

    @Test
    void modelFamiliesGetHalfTheirContextWindow() {
        assertEquals(100000, TokenBudgets.forModel("claude-3-5-sonnet"));
        assertEquals(200000, TokenBudgets.forModel("gemini-2.0-flash"));
        assertEquals(64000, TokenBudgets.forModel("gpt-4o-mini"));
        assertEquals(64000, TokenBudgets.forModel("GPT-4-Turbo"));
        assertEquals(32000, TokenBudgets.forModel("gpt-4"));
        assertEquals(8000, TokenBudgets.forModel("gpt-3.5-turbo"));
    }

    @Test
    void unknownOrMissingModelGetsTheDefaultBudget() {
        assertEquals(32000, TokenBudgets.forModel("llama3"));
        assertEquals(32000, TokenBudgets.forModel(null));
    }

    @Test
    void configuredBudgetWinsOverTheModelFamily() {
        assertEquals(5000, TokenBudgets.effective(5000, "claude-3-opus"));
        assertEquals(100000, TokenBudgets.effective(0, "claude-3-opus"));
    }
}
