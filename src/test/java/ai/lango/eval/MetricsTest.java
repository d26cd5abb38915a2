package ai.lango.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {

    private static Invocation.ToolUse use(String name, String args) throws Exception {
        return new Invocation.ToolUse(name, EvalFormat.MAPPER.readTree(args));
    }

    @Test
    void theTrajectoryMatchesByNameAndArgumentsWithNumbersByValue() throws Exception {
        List<Invocation.ToolUse> expected = List.of(use("read", "{\"path\":\"a\",\"n\":1}"), use("write", "{\"path\":\"b\"}"));
        assertTrue(Trajectory.matches(expected, List.of(use("read", "{\"n\":1.0,\"path\":\"a\"}"), use("write", "{\"path\":\"b\"}")),
                Metric.MatchType.EXACT));
        assertFalse(Trajectory.matches(expected, List.of(use("read", "{\"path\":\"a\",\"n\":2}"), use("write", "{\"path\":\"b\"}")),
                Metric.MatchType.EXACT), "other arguments");
        List<Invocation.ToolUse> more = List.of(use("list", "{}"), use("read", "{\"path\":\"a\",\"n\":1}"), use("write", "{\"path\":\"b\"}"));
        assertFalse(Trajectory.matches(expected, more, Metric.MatchType.EXACT), "an extra call");
        assertTrue(Trajectory.matches(expected, more, Metric.MatchType.IN_ORDER));
        List<Invocation.ToolUse> swapped = List.of(use("write", "{\"path\":\"b\"}"), use("read", "{\"path\":\"a\",\"n\":1}"));
        assertFalse(Trajectory.matches(expected, swapped, Metric.MatchType.IN_ORDER));
        assertTrue(Trajectory.matches(expected, swapped, Metric.MatchType.ANY_ORDER));
    }

    @Test
    void theResponseMatchIsRouge1OfStemmedWords() {
        assertEquals(1.0, Rouge.rouge1("The device is turned off.", "the device is turned OFF"), 1e-9);
        assertEquals(1.0, Rouge.rouge1("running tests", "runs tests"), 1e-9, "stemmed: running and runs are run");
        double reworded = Rouge.rouge1("I have set the device_2 status to off.", "Done: bedroom lamp powered down.");
        assertTrue(reworded < 0.7, "a reworded answer scores low: " + reworded);
        assertEquals(2 * (2.0 / 3) * (2.0 / 4) / (2.0 / 3 + 2.0 / 4), Rouge.rouge1("a b c d", "a b x"), 1e-9);
        assertEquals(0.0, Rouge.rouge1("", "anything"));
    }

    @Test
    void metricsAreAskedByNameWithThresholdsFromZeroToOne() throws Exception {
        assertEquals(Metric.defaults(), Metric.parse(null));
        List<Metric> parsed = Metric.parse(EvalFormat.MAPPER.readTree("[{\"metricName\":\"response_match_score\",\"threshold\":0.5},"
                + "{\"metricName\":\"tool_trajectory_avg_score\",\"criterion\":{\"threshold\":1,\"matchType\":\"in-order\"}},"
                + "{\"metricName\":\"final_response_match_v2\",\"threshold\":0.5,\"criterion\":{\"judgeModelOptions\":{\"numSamples\":3}}}]"));
        assertEquals(0.5, parsed.get(0).threshold());
        assertEquals(Metric.MatchType.IN_ORDER, parsed.get(1).matchType());
        assertEquals(3, parsed.get(2).samples());
        EvalFormatException unknown = assertThrows(EvalFormatException.class, () -> Metric.parse(EvalFormat.MAPPER.readTree(
                "[{\"metricName\":\"vibes\",\"threshold\":0.5}]")));
        assertTrue(unknown.getMessage().startsWith("evalMetrics[0].metricName: unknown metric \"vibes\""), unknown.getMessage());
        EvalFormatException outside = assertThrows(EvalFormatException.class, () -> Metric.parse(EvalFormat.MAPPER.readTree(
                "[{\"metricName\":\"response_match_score\",\"threshold\":1.5}]")));
        assertEquals("evalMetrics[0].threshold: 1.5 is outside 0..1", outside.getMessage());
    }

    @Test
    void theJudgesVerdictIsReadFromItsLabelAndTheMajorityDecides() {
        assertEquals(1.0, Judge.verdict("{\"reasoning\": \"same facts\", \"is_the_agent_response_valid\": \"valid\"}"));
        assertEquals(0.0, Judge.verdict("```json\n{\"reasoning\": \"no\",\n \"is_the_agent_response_valid\": [\"invalid\"]\n}\n```"));
        assertNull(Judge.verdict("I think it is fine."));
        assertEquals(1.0, Judge.majority(java.util.Arrays.asList(1.0, 0.0, 1.0, null)));
        assertEquals(0.0, Judge.majority(List.of(1.0, 0.0)), "a tie is invalid");
        assertNull(Judge.majority(java.util.Arrays.asList(null, null)));
        assertTrue(Judge.question("q", "a", "r").contains("Reference answer:\nr"));
    }

    @Test
    void aStoredSessionBecomesInvocationsWithToolsApprovalsAndDelegations() throws Exception {
        JsonNode session = EvalFormat.MAPPER.readTree("""
                {"events": [
                  {"author": "user", "invocationId": "e1", "timestamp": 1.5, "content": {"role": "user", "parts": [{"text": "list files"}]}},
                  {"author": "lango-orchestrator", "content": {"parts": [{"functionCall": {"id": "c0", "name": "transfer_to_agent", "args": {"agent_name": "executor"}}}]},
                   "actions": {"transferToAgent": "executor"}},
                  {"author": "executor", "partial": true, "content": {"parts": [{"text": "Work"}]}},
                  {"author": "executor", "content": {"parts": [{"functionCall": {"id": "c1", "name": "exec", "args": {"command": "ls"}}}]}},
                  {"author": "executor", "content": {"parts": [{"functionCall": {"id": "k1", "name": "adk_request_confirmation",
                     "args": {"originalFunctionCall": {"name": "exec"}, "toolConfirmation": {"payload": {"tool": "exec", "approvalId": "a1"}}}}}]}},
                  {"author": "user", "content": {"parts": [{"functionResponse": {"id": "k1", "name": "adk_request_confirmation", "response": {"confirmed": true}}}]}},
                  {"author": "executor", "content": {"parts": [{"functionResponse": {"id": "c1", "name": "exec", "response": {"stdout": "a"}}}]}},
                  {"author": "executor", "content": {"parts": [{"text": "One file: a."}]}},
                  {"author": "user", "content": {"parts": [{"text": "thanks"}]}},
                  {"author": "lango-orchestrator", "content": {"parts": [{"text": "You're welcome."}]}}
                ]}""");
        List<Invocation> invocations = SessionConversation.invocations(session);
        assertEquals(2, invocations.size(), "the approval's answer starts no invocation");
        Invocation first = invocations.get(0);
        assertEquals("list files", first.userText());
        assertEquals(List.of("transfer_to_agent", "exec"), first.toolUses().stream().map(Invocation.ToolUse::name).toList());
        assertEquals(List.of("executor"), first.delegations());
        assertEquals(List.of(new Invocation.ApprovalStep("exec", true)), first.approvals());
        assertEquals("One file: a.", first.finalResponse());
        assertEquals("You're welcome.", invocations.get(1).finalResponse());
    }

    @Test
    void anApprovalTakenFromASessionKeepsTheArgumentsOfTheCallItAskedAbout() throws Exception {
        JsonNode session = EvalFormat.MAPPER.readTree("""
                {"events": [
                  {"author": "user", "content": {"parts": [{"text": "list files"}]}},
                  {"author": "lango-agent", "content": {"parts": [{"functionCall": {"id": "c1", "name": "exec", "args": {"command": "ls"}}}]}},
                  {"author": "lango-agent", "content": {"parts": [{"functionCall": {"id": "k1", "name": "adk_request_confirmation",
                     "args": {"originalFunctionCall": {"name": "exec", "args": {"command": "ls"}},
                              "toolConfirmation": {"payload": {"tool": "exec", "approvalId": "a1", "args": {"command": "ls"}}}}}}]}},
                  {"author": "user", "content": {"parts": [{"functionResponse": {"id": "k1", "name": "adk_request_confirmation", "response": {"confirmed": true}}}]}},
                  {"author": "lango-agent", "content": {"parts": [{"text": "One file."}]}}
                ]}""");
        Invocation.ApprovalStep step = SessionConversation.invocations(session).get(0).approvals().get(0);
        assertEquals("{\"command\":\"ls\"}", step.args().toString());
        JsonNode written = EvalFormat.invocationJson(SessionConversation.invocations(session).get(0), false, false);
        assertEquals("[{\"tool\":\"exec\",\"args\":{\"command\":\"ls\"},\"decision\":\"approved\"}]",
                written.path("approvals").toString(), "written back with the case, and read again");
        ObjectNode again = EvalFormat.MAPPER.createObjectNode();
        again.set("user_content", written.path("user_content"));
        again.set("approvals", written.path("approvals"));
        assertEquals(step, EvalFormat.readCase(EvalFormat.MAPPER.createObjectNode().put("eval_id", "c").set("conversation",
                EvalFormat.MAPPER.createArrayNode().add(again)), "case").conversation().get(0).approvals().get(0));
    }
}
