package ai.lango.session;

import static ai.lango.session.TokenEstimatorTest.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** History truncation to a token budget, which keeps the conversation's sequence safe to send. */
class HistoryTruncationTest {

    private static List<Message> users(int count, String content) {
        return IntStream.range(0, count).mapToObj(i -> message("user", content)).toList();
    }

    private static ToolCall call(String id) {
        return new ToolCall(id, "exec", "{\"command\":\"ls\"}", null);
    }

    private static ToolCall response(String id) {
        return new ToolCall(id, "exec", null, "{\"output\":\"a.txt\"}");
    }

    @Test
    void everythingIsKeptWhenItFitsTheBudget() {
        assertEquals(5, HistoryTruncation.truncate(users(5, "short"), 10000).size());
    }

    @Test
    void explicitBudgetKeepsTheNewestMessagesThatFit() {
        List<Message> history = new ArrayList<>(users(20, "x".repeat(400)));
        List<Message> kept = HistoryTruncation.truncate(history, 500);
        assertEquals(4, kept.size());
        assertEquals(history.subList(16, 20), kept);
    }

    @Test
    void newestMessageIsKeptEvenWhenItAloneExceedsTheBudget() {
        assertEquals(1, HistoryTruncation.truncate(users(1, "x".repeat(40000)), 10).size());
    }

    @Test
    void emptyHistoryStaysEmpty() {
        assertEquals(0, HistoryTruncation.truncate(List.of(), 100).size());
    }

    @Test
    void budgetCutsExactlyBetweenMessages() {
        assertEquals(2, HistoryTruncation.truncate(users(10, "x".repeat(40)), 30).size());
    }

    @Test
    void defaultBudgetOf32000AppliesWhenBudgetIsZero() {
        assertEquals(150, HistoryTruncation.truncate(users(150, "msg"), 0).size());
        // 400 messages of 104 tokens: 32000 / 104 = 307 fit the default budget.
        assertEquals(307, HistoryTruncation.truncate(users(400, "x".repeat(400)), 0).size());
    }

    @Test
    void truncationThatKeepsNoUserMessageKeepsNothing() {
        List<Message> history = List.of(
                message("user", "x".repeat(400)),
                message("assistant", "", call("c1")),
                message("tool", "{\"output\":\"a.txt\"}", response("c1")),
                message("tool", "{\"output\":\"b.txt\"}", response("c2")),
                message("assistant", "done"));
        // Budget fits the last three only: tool results and an answer, no user message to open with.
        List<Message> kept = HistoryTruncation.truncate(history, TokenEstimator.messagesTokens(history.subList(2, 5)));
        assertEquals(List.of(), kept);
    }

    @Test
    void truncationDropsALeadingFunctionCallWhoseResponseWasNotKept() {
        List<Message> history = List.of(
                message("user", "x".repeat(400)),
                message("assistant", "", call("c1")),
                message("user", "never mind"),
                message("assistant", "ok"));
        List<Message> kept = HistoryTruncation.truncate(history, TokenEstimator.messagesTokens(history.subList(1, 4)));
        assertEquals(history.subList(2, 4), kept);
    }

    @Test
    void truncationDropsALeadingFunctionCallEvenWithItsResponseKept() {
        List<Message> history = List.of(
                message("user", "x".repeat(400)),
                message("assistant", "", call("c1")),
                message("tool", "{\"output\":\"a.txt\"}", response("c1")),
                message("assistant", "a.txt is there"),
                message("user", "thanks"),
                message("assistant", "welcome"));
        // The cut lands on the call: call and response are whole, but the turn's question is gone.
        List<Message> kept = HistoryTruncation.truncate(history, TokenEstimator.messagesTokens(history.subList(1, 6)));
        assertEquals(history.subList(4, 6), kept);
    }

    @Test
    void truncationDropsALeadingAssistantAnswer() {
        List<Message> history = List.of(
                message("user", "x".repeat(400)),
                message("assistant", "an answer"),
                message("user", "next"),
                message("assistant", "ok"));
        List<Message> kept = HistoryTruncation.truncate(history, TokenEstimator.messagesTokens(history.subList(1, 4)));
        assertEquals(history.subList(2, 4), kept);
    }

    @Test
    void truncatedHistoryAlwaysStartsWithAUserMessage() {
        List<Message> history = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            history.add(message("user", "question " + "q".repeat(i * 11)));
            history.add(message("assistant", "", call("c" + i)));
            history.add(message("tool", "", response("c" + i)));
            history.add(message("assistant", "answer " + "a".repeat(i * 3)));
        }
        int all = TokenEstimator.messagesTokens(history);
        for (int budget = 1; budget < all; budget++) {
            List<Message> kept = HistoryTruncation.truncate(history, budget);
            if (!kept.isEmpty()) {
                assertEquals("user", kept.get(0).role(), "budget " + budget);
            }
        }
    }

    @Test
    void noTruncationPreservesTrailingFunctionCall() {
        List<Message> history = List.of(message("user", "list files"), message("assistant", "", call("c1")));
        assertSame(history, HistoryTruncation.truncate(history, 10000));
    }

    /**
     * The store reads only a window of the newest messages: those that fit plus the first that does
     * not (at least two). Truncating that window must give what truncating everything gives.
     */
    @Test
    void newestWindowTruncatesLikeTheWholeHistory() {
        List<Message> history = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            history.add(message("user", "question " + "q".repeat(i * 7)));
            history.add(message("assistant", "", call("c" + i)));
            history.add(message("tool", "", response("c" + i)));
            history.add(message("assistant", "answer " + "a".repeat(i * 5)));
        }
        for (int budget : new int[] {1, 10, 30, 50, 99, 200, 500, 1000, 5000, 100000}) {
            List<Message> newestFirst = new ArrayList<>(history);
            Collections.reverse(newestFirst);
            int read = 0;
            long used = 0;
            for (Message m : newestFirst) {
                used += TokenEstimator.messageTokens(m);
                read++;
                if (used > budget && read >= 2) {
                    break;
                }
            }
            List<Message> window = history.subList(history.size() - read, history.size());
            assertEquals(HistoryTruncation.truncate(history, budget), HistoryTruncation.truncate(window, budget),
                    "budget " + budget);
        }
    }

    @Test
    void configuredBudgetWinsOverTheModelFamily() {
        assertEquals(5000, HistoryTruncation.budget(5000, java.util.OptionalInt.of(100000)));
        assertEquals(100000, HistoryTruncation.budget(0, java.util.OptionalInt.of(100000)));
    }

    @Test
    void modelOfNoKnownFamilyGetsTheDefaultBudget() {
        assertEquals(32000, HistoryTruncation.budget(0, java.util.OptionalInt.empty()));
    }
}
