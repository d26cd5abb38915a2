package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.session.Roles;
import ai.lango.session.SessionStore;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turns.Turns;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The synchronous tier of compaction on the real server: a tool result makes the history jump past the 1,200-token
 * budget in one turn, and the next turn's model call is built from a summary made before it (the threshold is 1, so
 * the background pass, which measures the history already cut to the budget, never runs: only the turn's own pass
 * can have folded it). The tool's call and its result stay together in every request.
 */
@ExtendWith(ArquillianExtension.class)
class CompactionBeforeCallIT extends FakeLlmIT {

    static final String SUMMARIZER_ASKS = "You compact a conversation";
    static final String FIRST = "Remember the code word PELICAN for later, please.";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-compaction-before-call.war"),
                """
                lango.agent.token-budget=1200
                lango.agent.compaction.threshold=1
                lango.agent.compaction.keep-recent-turns=1
                """);
    }

    @Inject
    Turns turns;

    @Inject
    SessionStore sessions;

    private String chat(String key, String text) {
        return turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, text, true,
                Turns.Listener.of(event -> { })));
    }

    private List<FakeLlmServer.Recorded> agentRequests() {
        return fake.requests().stream().filter(r -> !r.body().contains(SUMMARIZER_ASKS)).toList();
    }

    @Test
    void aToolResultThatTakesTheHistoryPastTheBudgetIsFoldedBeforeTheNextModelCall() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String key = "compaction-sync-" + run;
        String file = "compaction-report-" + run + ".txt";
        String marker = "REPORT-" + run;
        // about 760 tokens (a result is counted once, though stored as its message's content and its call's output):
        // with the first turn's 500, past the budget; without, within
        Files.writeString(ItWorkspace.dir().resolve(file), marker + " " + "quarterly figures are steady. ".repeat(100));
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.openAiText(
                r.body().contains("PELICAN") ? "SUMMARY: the user's code word is PELICAN." : "SUMMARY: small talk."));

        fake.enqueue(Reply.openAiText("Noted. " + "I will keep it in mind. ".repeat(80)));
        chat(key, FIRST);
        fake.enqueue(Reply.openAiToolCall("call_report_" + run, "fs_read", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("Read it."));
        chat(key, "Read the report file " + file + ", please.");
        assertTrue(fake.last().body().contains(marker), "the tool's result reached the model");
        int summariesBefore = (int) fake.requests().stream().filter(r -> r.body().contains(SUMMARIZER_ASKS)).count();
        assertEquals(0, summariesBefore, "no background pass ran (threshold 1)");

        fake.enqueue(Reply.openAiText("PELICAN."));
        assertEquals("PELICAN.", chat(key, "What is the code word?"));

        List<FakeLlmServer.Recorded> all = fake.requests();
        int summary = -1;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).body().contains(SUMMARIZER_ASKS)) {
                summary = i;
            }
        }
        assertTrue(summary >= 0 && summary == all.size() - 2, "the summary was asked for right before the turn's call");
        String last = all.get(all.size() - 1).body();
        assertTrue(last.contains("SUMMARY: the user's code word is PELICAN"), "the call is built from the summary: " + last);
        assertFalse(last.contains(FIRST), "the first turn's own text is folded");
        assertTrue(last.contains(marker), "the kept turn's tool result is whole");
        assertEquals(1, sessions.messages(SessionRef.of(Names.DEFAULT_USER, key)).stream()
                .filter(m -> Roles.COMPACTION.equals(m.role())).count());
        for (FakeLlmServer.Recorded request : agentRequests()) {
            assertPaired(request.json().path("messages"));
        }
    }

    /** Every tool message answers a call made before it, and every call is answered. */
    static void assertPaired(JsonNode messages) {
        Set<String> called = new HashSet<>();
        Set<String> answered = new HashSet<>();
        for (JsonNode message : messages) {
            for (JsonNode call : message.path("tool_calls")) {
                called.add(call.path("id").asText());
            }
            if ("tool".equals(message.path("role").asText())) {
                String id = message.path("tool_call_id").asText();
                assertTrue(called.contains(id), "result " + id + " follows its call: " + messages);
                answered.add(id);
            }
        }
        assertEquals(called, answered, "every call has its result: " + messages);
    }
}
