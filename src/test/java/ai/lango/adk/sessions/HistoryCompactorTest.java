package ai.lango.adk.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.session.SessionLeases;
import ai.lango.turn.SessionRef;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When a session's history is folded into a summary, what the summarizer is shown, and what a failed summary leaves. */
class HistoryCompactorTest {

    private static final SessionRef S1 = SessionRef.of("user", "s1");

    private final JpaSessionServiceTest.RecordingStore store = new JpaSessionServiceTest.RecordingStore();
    private final LangoSettings settings = TestSettings.of(Path.of("/tmp/lango"), "lango.agent.token-budget", "400",
            "lango.agent.compaction.keep-recent-turns", "2");
    private final JpaSessionService service = new JpaSessionService(store, settings);
    private final HistoryCompactor compactor = new HistoryCompactor();
    private final AtomicInteger asked = new AtomicInteger();
    private long clock = 1;

    HistoryCompactorTest() {
        compactor.settings = settings;
        compactor.sessions = service;
        compactor.store = store;
        compactor.leases = new SessionLeases(settings);
        // summarises by echoing the user's lines it is shown, as the fake model of the integration test does
        compactor.summarizer = (session, instruction, input) -> {
            asked.incrementAndGet();
            return input.lines().filter(l -> l.startsWith("user: ") || !l.contains(":"))
                    .map(l -> l.length() > 60 ? l.substring(0, 60) : l).reduce("", (a, b) -> a + b + "\n");
        };
    }

    private void turn(Session session, String question) {
        for (Event event : List.of(event("user", "user", question), event("lango", "model", "x".repeat(400)))) {
            service.appendEvent(session, event).blockingGet();
        }
    }

    private Event event(String author, String role, String text) {
        return Event.builder().id("e" + clock).invocationId("i").author(author).timestamp(clock++)
                .content(Content.builder().role(role).parts(List.of(Part.fromText(text))).build())
                .actions(EventActions.builder().build()).build();
    }

    private List<String> modelTexts() {
        return service.getSession("lango", "user", "s1", Optional.empty()).blockingGet().events().stream()
                .map(CompactedHistoryTest::text).toList();
    }

    @Test
    void aHistoryPastTheThresholdIsFoldedOnceIntoASummaryThatKeepsTheFirstTurnsFact() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        turn(session, "remember the code word ALBATROSS");
        assertEquals(HistoryCompactor.Outcome.FITS, compactor.compact(S1));
        for (int i = 2; i <= 4; i++) {
            turn(session, "question " + i);
        }
        assertEquals(HistoryCompactor.Outcome.COMPACTED, compactor.compact(S1));
        List<String> texts = modelTexts();
        assertTrue(texts.get(0).startsWith(CompactedHistory.SUMMARY_HEADER) && texts.get(0).contains("ALBATROSS"), texts.get(0));
        assertFalse(texts.stream().skip(1).anyMatch(t -> t.contains("ALBATROSS")), "the first turn's own text is folded");
        assertEquals(List.of("question 3", "question 4"), texts.stream().filter(t -> t.startsWith("question")).toList(),
                "the newest two turns are kept whole");
        assertEquals(9, store.messages.get(S1).size(), "the eight events stay, the compaction is one more");
        assertEquals(1, asked.get());
        assertTrue(CompactedHistory.problems(service.modelEvents(S1)).isEmpty());

        // right after, the history fits again: no second pass on a stale size
        assertEquals(HistoryCompactor.Outcome.FITS, compactor.compact(S1));
        assertEquals(1, asked.get());
    }

    @Test
    void aFailingSummarizerStoresNothingAndSaysSo() {
        Session session = service.getSession("lango", "user", "s1", Optional.empty()).blockingGet();
        for (int i = 1; i <= 4; i++) {
            turn(session, "question " + i);
        }
        compactor.summarizer = (s, instruction, input) -> {
            throw new IllegalStateException("the model answered nothing");
        };
        assertEquals(HistoryCompactor.Outcome.FAILED, compactor.compact(S1));
        assertEquals(8, store.messages.get(S1).size());
        assertTrue(modelTexts().contains("question 1"), "the history is as it was, cut to the budget by the store");
    }

    @Test
    void theSummarizerIsShownThePreviousSummaryAndEveryPartBounded() {
        String shown = HistoryCompactor.transcript("code word ALBATROSS", List.of(event("user", "user", "y".repeat(5000))));
        assertTrue(shown.startsWith("Previous summary:\ncode word ALBATROSS"));
        assertTrue(shown.length() < HistoryCompactor.PART_CHARS + 200, "one part is cut to " + HistoryCompactor.PART_CHARS);
    }
}
