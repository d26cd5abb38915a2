package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Evaluation among users (IdentityIT's deployment, shared: its users by token): a user's eval sets, cases and
 * results are their own; a user cannot make a case from another user's session, nor see or change a shared set (the
 * administrators'), nor read another's result; the replay runs as the user who runs it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class IdentityEvalIT extends FakeLlmIT {

    private static final String OPERATOR = "op-it-" + "0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @Deployment
    static WebArchive deployment() {
        return IdentityIT.deployment();
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String credential, String body) throws Exception {
        return new ItCallers(base, OPERATOR).call(method, path, credential, body);
    }

    private String issue(String userId) throws Exception {
        return new ItCallers(base, OPERATOR).issue(userId, false);
    }

    @Test
    void aUsersEvalSetsCasesAndResultsAreTheirOwn() throws Exception {
        String ann = "ann-" + RUN + "-eval";
        String bob = "bob-" + RUN + "-eval";
        String annToken = issue(ann);
        String bobToken = issue(bob);
        String ask = "what is on my list " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> Reply.openAiText("Milk and bread."));
        assertEquals(200, call("POST", "api/run", annToken, TestJson.runRequest(ann, "list-" + RUN, ask)).statusCode());

        String set = "ann_" + RUN;
        assertEquals(200, call("POST", "api/apps/lango/eval_sets/" + set, annToken, null).statusCode());
        HttpResponse<String> stolen = call("POST", "api/apps/lango/eval_sets/" + set + "/add_session", bobToken,
                "{\"evalId\":\"x\",\"sessionId\":\"list-" + RUN + "\",\"userId\":\"" + ann + "\"}");
        assertEquals(403, stolen.statusCode(), "bob may not read ann's session: " + stolen.body());
        assertEquals(200, call("POST", "api/apps/lango/eval_sets/" + set + "/add_session", annToken,
                "{\"evalId\":\"list\",\"sessionId\":\"list-" + RUN + "\",\"userId\":\"" + ann + "\"}").statusCode());
        assertFalse(call("GET", "api/apps/lango/eval_sets", bobToken, null).body().contains(set), "ann's set is hers");

        String bobSet = "bob_" + RUN;
        assertEquals(200, call("POST", "api/apps/lango/eval_sets/" + bobSet, bobToken, null).statusCode());
        HttpResponse<String> other = call("POST", "api/apps/lango/eval_sets/" + bobSet + "/add_session", bobToken,
                "{\"evalId\":\"x\",\"sessionId\":\"list-" + RUN + "\",\"userId\":\"" + ann + "\"}");
        assertEquals(403, other.statusCode(), "bob may not turn ann's session into a case: " + other.body());

        JsonNode result = TestJson.MAPPER.readTree(call("POST", "api/apps/lango/eval_sets/" + set + "/run_eval", annToken,
                "{}").body()).path(0);
        assertEquals(1, result.path("finalEvalStatus").asInt(), result.toString());
        assertEquals(ann, result.path("userId").asText(), "the replay runs as ann");
        String resultId = TestJson.MAPPER.readTree(call("GET", "api/apps/lango/eval_results", annToken, null).body()).path(0).asText();
        assertEquals(404, call("GET", "api/apps/lango/eval_results/" + resultId, bobToken, null).statusCode(), "bob reads no result of ann's");
        assertEquals(200, call("GET", "api/apps/lango/eval_results/" + resultId, annToken, null).statusCode());
        assertEquals(404, call("GET", "api/apps/lango/users/" + bob + "/sessions/" + result.path("sessionId").asText(), bobToken, null)
                .statusCode(), "the replay's session is ann's");

        String shared = "shared_" + RUN;
        assertEquals(200, call("PUT", "api/eval/sets/" + shared, OPERATOR, "[{\"query\":\"hi\",\"reference\":\"hello\"}]").statusCode());
        assertFalse(call("GET", "api/apps/lango/eval_sets", bobToken, null).body().contains(shared), "a shared set is the administrators'");
        assertEquals(404, call("DELETE", "api/apps/lango/eval_sets/" + shared, bobToken, null).statusCode(), "only an administrator changes it");
        assertEquals(200, call("POST", "api/apps/lango/eval_sets/" + shared, bobToken, null).statusCode(), "bob may have a set of that id");
        assertEquals(204, call("DELETE", "api/apps/lango/eval_sets/" + shared, bobToken, null).statusCode(), "his own");
        assertTrue(call("GET", "api/apps/lango/eval_sets", OPERATOR, null).body().contains(shared), "the administrators' stays");
        assertEquals(204, call("DELETE", "api/apps/lango/eval_sets/" + shared, OPERATOR, null).statusCode());
    }

    @Test
    void anAdministratorsEvalSetMadeFromAUsersSessionIsNoOtherUsersToRead() throws Exception {
        String cid = "cid-" + RUN + "-eval";
        String dee = "dee-" + RUN + "-eval";
        String cidToken = issue(cid);
        String deeToken = issue(dee);
        String adminToken = new ItCallers(base, OPERATOR).issue("adm-" + RUN + "-eval", true);
        String ask = "remember my door code " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> Reply.openAiText("Noted: 4921-" + RUN + "."));
        assertEquals(200, call("POST", "api/run", cidToken, TestJson.runRequest(cid, "door-" + RUN, ask)).statusCode());

        String set = "admin_" + RUN;
        assertEquals(200, call("POST", "api/apps/lango/eval_sets/" + set, OPERATOR, null).statusCode());
        assertEquals(200, call("POST", "api/apps/lango/eval_sets/" + set + "/add_session", OPERATOR,
                "{\"evalId\":\"door\",\"sessionId\":\"door-" + RUN + "\",\"userId\":\"" + cid + "\"}").statusCode());

        for (String user : new String[] {deeToken, cidToken}) {
            assertFalse(call("GET", "api/apps/lango/eval_sets", user, null).body().contains(set), "not listed");
            assertFalse(call("GET", "api/eval/sets", user, null).body().contains(set), "not listed");
            for (String path : new String[] {"api/apps/lango/eval_sets/" + set, "api/apps/lango/eval_sets/" + set + "/evals",
                    "api/apps/lango/eval_sets/" + set + "/evals/door", "api/eval/sets/" + set}) {
                HttpResponse<String> read = call("GET", path, user, null);
                assertEquals(404, read.statusCode(), path + ": " + read.body());
                assertFalse(read.body().contains("4921-" + RUN), read.body());
            }
            assertEquals(404, call("POST", "api/eval/sets/" + set + "/run", user, "{}").statusCode(), "nor run");
            assertEquals(404, call("DELETE", "api/apps/lango/eval_sets/" + set, user, null).statusCode(), "nor deleted");
        }
        HttpResponse<String> byAdmin = call("GET", "api/eval/sets/" + set, adminToken, null);
        assertEquals(200, byAdmin.statusCode(), "another administrator reads it: " + byAdmin.body());
        assertTrue(byAdmin.body().contains("4921-" + RUN));
        assertEquals(204, call("DELETE", "api/apps/lango/eval_sets/" + set, OPERATOR, null).statusCode());
    }
}
