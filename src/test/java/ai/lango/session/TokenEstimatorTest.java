package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token estimate's vectors (see TokenEstimator). */
class TokenEstimatorTest {

    static Message message(String role, String content, ToolCall... calls) {
        return new Message(role, content, Instant.EPOCH, null, List.of(calls));
    }

    @Test
    void emptyTextIsZeroTokens() {
        assertEquals(0, TokenEstimator.estimate(""));
    }

    @Test
    void latinTextCountsAQuarterTokenPerCodePoint() {
        assertEquals(2, TokenEstimator.estimate("Hello world"));
        assertEquals(10, TokenEstimator.estimate("The quick brown fox jumps over the lazy dog"));
    }

    @Test
    void hangulCountsHalfATokenPerCodePoint() {
        assertEquals(2, TokenEstimator.estimate("안녕하세요"));
    }

    @Test
    void mixedTextDividesEachPartSeparately() {
        assertEquals(2, TokenEstimator.estimate("Hello 안녕"));
    }

    @Test
    void messageAddsFourTokensOfOverhead() {
        assertEquals(6, TokenEstimator.messageTokens(message("user", "Hello world")));
    }

    @Test
    void messageCountsItsToolCalls() {
        Message assistant = message("assistant", "result",
                new ToolCall("tc01", "search", "{\"query\":\"test\"}", "{\"results\":[]}"));
        assertEquals(14, TokenEstimator.messageTokens(assistant));
    }

    @Test
    void aToolResultStoredAsContentAndAsOutputCountsOnce() {
        String output = "{\"output\":\"" + "x".repeat(400) + "\"}";
        // as EventMessages stores a result: the output is the call's and, for readers of the content alone, the content
        Message result = message("tool", output, new ToolCall("tc01", "exec", null, output));
        assertEquals(4 + TokenEstimator.estimate(output) + TokenEstimator.estimate("tc01") + TokenEstimator.estimate("exec"),
                TokenEstimator.messageTokens(result));
    }

    @Test
    void aToolResultNotInTheContentCountsItsOutput() {
        String output = "{\"output\":\"" + "x".repeat(400) + "\"}";
        Message legacy = message("tool", "", new ToolCall("tc01", "exec", null, output));
        assertEquals(4 + TokenEstimator.estimate(output) + TokenEstimator.estimate("tc01") + TokenEstimator.estimate("exec"),
                TokenEstimator.messageTokens(legacy));
    }

    @Test
    void twoEqualResultsInTheContentCountTwice() {
        String output = "{\"ok\":true,\"note\":\"" + "y".repeat(200) + "\"}";
        Message results = message("tool", output + output,
                new ToolCall("a", "exec", null, output), new ToolCall("b", "exec", null, output));
        assertEquals(4 + TokenEstimator.estimate(output + output) + 2 * TokenEstimator.estimate("exec"),
                TokenEstimator.messageTokens(results));
    }

    @Test
    void messagesSumTheirTokens() {
        assertEquals(12, TokenEstimator.messagesTokens(List.of(message("user", "Hello world"), message("user", "Hi there!!"))));
    }
}
