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
    void messagesSumTheirTokens() {
        assertEquals(12, TokenEstimator.messagesTokens(List.of(message("user", "Hello world"), message("user", "Hi there!!"))));
    }
}
