package ai.lango.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvalFormatTest {

    static String resource(String name) throws IOException {
        try (InputStream in = EvalFormatTest.class.getResourceAsStream("/eval/adk-python/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void anEvalSetWrittenByAdkForPythonIsRead() throws Exception {
        EvalSet set = EvalFormat.readFile("home_automation_dependent_tool_calls.evalset.json",
                resource("home_automation_dependent_tool_calls.evalset.json"));
        assertEquals("home_automation_dependent_tool_calls", set.id(), "a file's set id is its name");
        Invocation first = set.cases().get(0).conversation().get(0);
        assertEquals("Turn off device_2 in the Bedroom.", first.userText());
        assertEquals("I have set the device 2 status to off.", first.finalResponse());
        assertEquals("set_device_info", first.toolUses().get(0).name());
        assertEquals("device_2", first.toolUses().get(0).args().path("device_id").asText());
        assertEquals(2, set.cases().get(0).conversation().size());
    }

    @Test
    void adksOlderTestFileIsOneCaseWithItsTransfersAsDelegations() throws Exception {
        EvalSet set = EvalFormat.readFile("trip_inquiry.test.json", resource("trip_inquiry.test.json"));
        assertEquals("trip_inquiry", set.id());
        EvalCase only = set.cases().get(0);
        assertEquals(2, only.conversation().size());
        Invocation second = only.conversation().get(1);
        assertEquals("transfer_to_agent", second.toolUses().get(0).name());
        assertEquals(List.of("indentify_agent"), second.delegations());
        assertTrue(second.finalResponse().startsWith("Okay, I can help you"));
    }

    @Test
    void exportGivesTheSameSetBackWithTheFieldsLangoDoesNotRead() throws Exception {
        String json = """
                {"eval_set_id": "s", "name": "s", "eval_cases": [{"eval_id": "c", "rubrics": [{"id": "r1"}],
                 "conversation": [{"invocation_id": "i1", "user_content": {"parts": [{"text": "hi"}], "role": "user"},
                   "final_response": {"parts": [{"text": "hello"}], "role": "model"},
                   "intermediate_data": {"tool_uses": [{"name": "t", "args": {"a": 1}}]},
                   "approvals": [{"tool": "exec", "decision": "denied"}], "app_details": {"x": true}}],
                 "session_input": {"app_name": "lango", "user_id": "u", "state": {"k_v": 1}}}]}""";
        EvalSet read = EvalFormat.readFile("s.evalset.json", json);
        JsonNode exported = EvalFormat.fileJson(read);
        EvalSet again = EvalFormat.readSet(exported, "export", null);
        assertEquals(read.cases().get(0).conversation(), again.cases().get(0).conversation());
        assertEquals("r1", exported.path("eval_cases").path(0).path("rubrics").path(0).path("id").asText());
        assertTrue(exported.path("eval_cases").path(0).path("conversation").path(0).path("app_details").path("x").asBoolean());
        assertEquals(1, exported.path("eval_cases").path(0).path("session_input").path("state").path("k_v").asInt(),
                "state keys are the user's, never renamed");
        JsonNode wire = EvalFormat.caseJson(again.cases().get(0), true);
        assertEquals("hi", wire.path("conversation").path(0).path("userContent").path("parts").path(0).path("text").asText());
        assertEquals("u", wire.path("sessionInput").path("userId").asText());
        assertEquals(read.cases().get(0).conversation(), EvalFormat.readCase(wire, "wire").conversation(), "camelCase reads back");
    }

    @Test
    void aMalformedFileIsReportedWithItsFileAndField() {
        EvalFormatException noUser = assertThrows(EvalFormatException.class, () -> EvalFormat.readFile("bad.evalset.json",
                "{\"eval_set_id\":\"bad\",\"eval_cases\":[{\"eval_id\":\"c\",\"conversation\":[{\"final_response\":{\"parts\":[]}}]}]}"));
        assertEquals("bad.evalset.json: eval_cases[0].conversation[0].user_content: missing (the user's message)", noUser.getMessage());
        EvalFormatException decision = assertThrows(EvalFormatException.class, () -> EvalFormat.readFile("d.evalset.json",
                "{\"eval_set_id\":\"d\",\"eval_cases\":[{\"eval_id\":\"c\",\"conversation\":[{\"user_content\":\"x\","
                        + "\"approvals\":[{\"tool\":\"exec\",\"decision\":\"maybe\"}]}]}]}"));
        assertTrue(decision.getMessage().contains("eval_cases[0].conversation[0].approvals[0].decision"), decision.getMessage());
        EvalFormatException notJson = assertThrows(EvalFormatException.class, () -> EvalFormat.readFile("n.evalset.json", "{"));
        assertTrue(notJson.getMessage().startsWith("n.evalset.json: not JSON"), notJson.getMessage());
    }

    @Test
    void anInvocationWithoutAnExpectedAnswerHasNone() throws Exception {
        EvalSet set = EvalFormat.readFile("x.evalset.json", "{\"eval_set_id\":\"x\",\"eval_cases\":[{\"eval_id\":\"c\","
                + "\"conversation\":[{\"userContent\":{\"parts\":[{\"text\":\"q\"}]}}]}]}");
        assertNull(set.cases().get(0).conversation().get(0).finalResponse());
    }

    @Test
    void setIdsAreFileNamesWithoutPaths() {
        assertTrue(EvalFormat.validId("smoke_1.v2"));
        assertTrue(!EvalFormat.validId("../etc") && !EvalFormat.validId("a/b") && !EvalFormat.validId(""));
    }
}
