package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.sessions.CompactedHistory;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.session.Roles;
import ai.lango.session.SessionStore;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turns.Turns;
import com.google.adk.events.Event;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * History compaction on the real server, with a budget of 1,200 tokens and a fake model that writes the summary by
 * echoing the code word it is shown: many turns past the budget keep the first turn's fact in what the model reads,
 * without the first turn's own text, through a bounded number of compactions stored as ADK compaction events.
 */
@ExtendWith(ArquillianExtension.class)
class CompactionIT extends FakeLlmIT {

    static final String SUMMARIZER_ASKS = "You compact a conversation";
    static final String FIRST = "Remember the code word ALBATROSS for later, please.";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-compaction.war"),
                """
                lango.agent.token-budget=1200
                lango.agent.compaction.keep-recent-turns=2
                """);
    }

    @Inject
    Turns turns;

    @Inject
    SessionStore sessions;

    @Inject
    JpaSessionService adkSessions;

    @Inject
    ai.lango.usage.UsageRows usage;

    private String chat(String key, String text, String answer) {
        // no usage reported (the fake's would be a constant 12 prompt tokens): the next request's size is estimated
        fake.enqueue(Reply.sse(FakeLlmServer.OpenAi.textFrames(-1, 0, 0, answer)));
        return turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, text, true,
                Turns.Listener.of(event -> { })));
    }

    private List<FakeLlmServer.Recorded> agentRequests() {
        return fake.requests().stream().filter(r -> !r.body().contains(SUMMARIZER_ASKS)).toList();
    }

    private long compactions(String key) {
        return sessions.messages(SessionRef.of(Names.DEFAULT_USER, key)).stream()
                .filter(m -> Roles.COMPACTION.equals(m.role())).count();
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(50);
        }
    }

    @Test
    void manyTurnsPastTheBudgetKeepTheFirstTurnsFactInASummaryStoredAsACompactionEvent() throws Exception {
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.openAiText(
                r.body().contains("ALBATROSS") ? "SUMMARY: the user's code word is ALBATROSS." : "SUMMARY: small talk."));
        String key = "compaction-" + UUID.randomUUID();
        int turnsRun = 14;
        chat(key, FIRST, "Noted.");
        for (int i = 2; i <= turnsRun; i++) {
            chat(key, "Question " + i + ": " + "tell me more about the weather today. ".repeat(6), "It is sunny. ".repeat(20));
            Thread.sleep(200); // the pass runs after the turn; the next turn may start before it ends, as a user's would
        }
        eventually("a compaction is stored", () -> compactions(key) > 0);
        chat(key, "What is the code word?", "ALBATROSS.");

        String last = agentRequests().get(agentRequests().size() - 1).body();
        assertTrue(last.contains("SUMMARY: the user's code word is ALBATROSS"),
                "the first turn's fact reaches the model through the summary: " + last);
        assertFalse(last.contains(FIRST), "the first turn's own text is folded away");
        long stored = compactions(key);
        assertTrue(stored >= 1 && stored <= turnsRun / 4, "compaction ran a bounded number of times: " + stored);

        // ADK's view of the session keeps every event, the compaction among them
        List<Event> events = adkSessions.readSession(Names.APP, Names.DEFAULT_USER, key).orElseThrow().events();
        assertTrue(events.stream().anyMatch(e -> e.stringifyContent().contains(FIRST) || e.toJson().contains(FIRST)),
                "the first turn is still stored");
        assertEquals(stored, events.stream().filter(CompactedHistory::isCompaction).count());
        // the summaries' calls are the user's usage, under purpose compaction
        java.util.Map<String, ai.lango.usage.UsageRows.Totals> byPurpose = usage.totals(java.util.Optional.of(Names.DEFAULT_USER),
                java.util.Optional.of(key), java.time.Instant.EPOCH, java.time.Instant.now().plusSeconds(60), "purpose");
        assertTrue(byPurpose.containsKey("compaction") && byPurpose.get("compaction").calls() >= stored,
                "the summarizer's calls are metered as compaction: " + byPurpose);
        for (FakeLlmServer.Recorded request : agentRequests()) {
            assertTrue(request.json().path("messages").get(1).path("role").asText().equals("user"),
                    "every request opens with the user: " + request.body());
        }
    }

    @Test
    void aFailingSummarizerLeavesEveryTurnAnsweredAndNothingCompacted() throws Exception {
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.status(500, "{\"error\":{\"message\":\"down\"}}"));
        String key = "compaction-" + UUID.randomUUID();
        chat(key, FIRST, "Noted.");
        for (int i = 2; i <= 14; i++) {
            assertEquals("It is sunny.", chat(key, "Question " + i + ": " + "weather? ".repeat(40), "It is sunny."));
        }
        eventually("the summarizer was asked", () -> fake.requests().stream().anyMatch(r -> r.body().contains(SUMMARIZER_ASKS)));
        assertEquals(0, compactions(key));
        String last = agentRequests().get(agentRequests().size() - 1).body();
        assertFalse(last.contains(FIRST), "the history is cut to the budget, as without compaction");
    }

    @Test
    void toolCallsInTheHistoryStayPairedWithTheirResultsAcrossCompactions() throws Exception {
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.openAiText(
                r.body().contains("ALBATROSS") ? "SUMMARY: the user's code word is ALBATROSS." : "SUMMARY: small talk."));
        String run = UUID.randomUUID().toString().substring(0, 8);
        String key = "compaction-tools-" + run;
        String file = "compaction-notes-" + run + ".txt";
        java.nio.file.Files.writeString(ItWorkspace.dir().resolve(file), "notes: " + "the figures hold. ".repeat(24));
        chat(key, FIRST, "Noted.");
        for (int i = 2; i <= 12; i++) {
            fake.enqueue(Reply.openAiToolCall("call_" + i + "_" + run, "fs_read", "{\"path\":\"" + file + "\"}"));
            chat(key, "Question " + i + ": read " + file + " again, please.", "It says the figures hold. ".repeat(8));
            Thread.sleep(100);
        }
        eventually("a compaction is stored", () -> compactions(key) > 0);
        chat(key, "What is the code word?", "ALBATROSS.");

        String last = agentRequests().get(agentRequests().size() - 1).body();
        assertTrue(last.contains("SUMMARY: the user's code word is ALBATROSS"), last);
        assertTrue(last.contains("call_12_" + run), "the newest turns' calls are kept whole: " + last);
        for (FakeLlmServer.Recorded request : agentRequests()) {
            CompactionBeforeCallIT.assertPaired(request.json().path("messages"));
            assertEquals("user", request.json().path("messages").get(1).path("role").asText(),
                    "every request opens with the user: " + request.body());
        }
    }

    @Test
    void aCallWaitingForApprovalIsNeverFoldedAndItsResultFollowsItOnceApproved() throws Exception {
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.openAiText(
                r.body().contains("ALBATROSS") ? "SUMMARY: the user's code word is ALBATROSS." : "SUMMARY: small talk."));
        String run = UUID.randomUUID().toString().substring(0, 8);
        String key = "compaction-approval-" + run;
        String file = "compaction-doomed-" + run + ".txt";
        java.nio.file.Path doomed = ItWorkspace.dir().resolve(file);
        java.nio.file.Files.writeString(doomed, "to be deleted");
        chat(key, FIRST, "Noted.");
        for (int i = 2; i <= 8; i++) {
            chat(key, "Question " + i + ": " + "tell me more about the weather today. ".repeat(6), "It is sunny. ".repeat(20));
        }
        // the chats' passes fold first: the pass after the waiting turn measures the fake's reported 20 prompt tokens
        // (it fits), so a fold that waited for it would never come; the folded range must still end before the call
        eventually("a compaction is stored", () -> compactions(key) > 0);
        String call = "call_delete_" + run;
        fake.enqueue(Reply.openAiToolCall(call, "fs_delete", "{\"path\":\"" + file + "\"}"));
        java.util.concurrent.atomic.AtomicReference<String> approval = new java.util.concurrent.atomic.AtomicReference<>();
        turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, "Delete " + file + ", please.",
                true, Turns.Listener.of(event -> {
                    if (event instanceof ai.lango.turn.TurnEvent.ApprovalRequest asked) {
                        approval.set(asked.approvalId());
                    }
                })));
        assertTrue(approval.get() != null, "the delete waits for a person");
        Thread.sleep(1000); // and the pass after the waiting turn has run

        List<Event> events = adkSessions.readSession(Names.APP, Names.DEFAULT_USER, key).orElseThrow().events();
        long foldedUntil = CompactedHistory.newest(events).orElseThrow().endTimestamp();
        Event asking = events.stream().filter(e -> e.functionCalls().stream().anyMatch(c -> c.id().filter(call::equals)
                .isPresent())).findFirst().orElseThrow();
        assertTrue(foldedUntil < asking.timestamp(), "the call waiting for a person is after the folded range");

        fake.enqueue(Reply.sse(FakeLlmServer.OpenAi.textFrames(-1, 0, 0, "Deleted it.")));
        assertEquals("Deleted it.", turns.await(turns.answer(ai.lango.security.Identity.OPERATOR, approval.get(), true, true,
                java.util.Optional.empty())));
        assertFalse(java.nio.file.Files.exists(doomed), "the approved call ran");
        String last = agentRequests().get(agentRequests().size() - 1).body();
        assertTrue(last.contains("SUMMARY: the user's code word is ALBATROSS"), last);
        assertTrue(last.contains(call), "the call and its result reach the model together: " + last);
        CompactionBeforeCallIT.assertPaired(agentRequests().get(agentRequests().size() - 1).json().path("messages"));
    }
}
