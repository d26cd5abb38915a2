package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turns.Turns;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
import ai.lango.retrieval.Retrieval;
import ai.lango.turn.Names;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * RAG through the agent, with the local embedding model: knowledge saved by the agent's own tool
 * call is what rag_retrieve returns for a paraphrase, and the next turn's system prompt carries it
 * once (User Knowledge shows it; Semantic Context, with lango.embedding.rag.enabled, does not repeat it).
 */
@ExtendWith(ArquillianExtension.class)
class RagIT extends FakeLlmIT {

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-rag.war"), "lango.embedding.rag.enabled=true\n");
    }

    @Inject
    Turns turns;

    @Inject
    KnowledgeStore knowledge;

    @Inject
    Retrieval retrieval;

    private String chat(String key, String text) {
        return turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, text, true,
                Turns.Listener.of(event -> { })));
    }

    @Test
    void knowledgeSavedThroughTheToolIsRetrievedByAParaphraseAndPutInThePrompt() throws Exception {
        RetrievalIT.forgetEarlierRuns(knowledge, "Pager duty hands over every Monday at nine in the morning.");
        String run = UUID.randomUUID().toString().substring(0, 8);
        String session = "rag-" + run;
        String entry = "oncall-" + run;
        fake.enqueue(Reply.openAiToolCall("call_s", "save_knowledge", "{\"key\":\"" + entry + "\",\"category\":\"fact\","
                        + "\"content\":\"Pager duty hands over every Monday at nine in the morning.\"}"))
                .enqueue(Reply.openAiText("Saved."));
        assertEquals("Saved.", chat(session, "Remember when the pager duty hands over."));
        assertTrue(retrieval.awaitIdle(Duration.ofSeconds(60)));

        fake.enqueue(Reply.openAiToolCall("call_r", "rag_retrieve",
                        "{\"query\":\"On which weekday does the on-call rotation change?\",\"limit\":3,\"collections\":[\"knowledge\"]}"))
                .enqueue(Reply.openAiText("Mondays."));
        assertEquals("Mondays.", chat(session, "When does on-call change?"));
        JsonNode result = toolResult(fake.last().json(), "rag_retrieve");
        assertTrue(result.path("count").asInt() >= 1, result.toString());
        JsonNode first = result.path("results").get(0);
        assertEquals("knowledge", first.path("collection").asText());
        assertEquals(entry, first.path("sourceId").asText(), result.toString());
        assertEquals("Pager duty hands over every Monday at nine in the morning.", first.path("content").asText());
        assertTrue(first.path("score").asDouble() > 0);

        fake.enqueue(Reply.openAiText("Monday, 9:00."));
        chat(session, "Remind me: on which weekday does the on-call rotation switch?");
        String prompt = fake.last().json().path("messages").get(0).path("content").asText();
        // Found by meaning for the paraphrase, and shown once: under User Knowledge, which comes first,
        // not again under Semantic Context (RAG).
        String text = "> Pager duty hands over every Monday at nine in the morning.\n";
        assertEquals(prompt.indexOf(text), prompt.lastIndexOf(text), "one fact, one section: " + prompt);
        assertTrue(prompt.indexOf(text) > prompt.indexOf("## User Knowledge\n\n[shared knowledge \"" + entry + "\""), prompt);
        assertFalse(prompt.substring(prompt.indexOf(text)).contains("## Semantic Context (RAG)\n\n[shared knowledge " + entry), prompt);

        fake.enqueue(Reply.openAiToolCall("call_b", "rag_retrieve", "{\"query\":\"x\",\"collections\":[\"emails\"]}"))
                .enqueue(Reply.openAiText("Sorry."));
        chat(session, "Search my emails.");
        String refused = fake.last().json().path("messages").toString();
        assertTrue(refused.contains("may hold only"), refused);
        knowledge.delete(KnowledgeEntry.SHARED, entry);

        java.net.http.HttpResponse<String> graph = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://localhost:" + ItPorts.HTTP + "/lango-rag/api/admin/graph")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(404, graph.statusCode(), "the graph is off by default");
        assertTrue(graph.body().contains("graph_disabled"), graph.body());
    }

    /** The response of the named tool in the last request's messages (OpenAI wire: a "tool" message with JSON content). */
    private static JsonNode toolResult(JsonNode request, String tool) throws Exception {
        JsonNode messages = request.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if ("tool".equals(m.path("role").asText())) {
                JsonNode content = TestJson.MAPPER.readTree(m.path("content").asText());
                return content.has("results") ? content : content.path("response").isMissingNode() ? content : content.path("response");
            }
        }
        throw new AssertionError("no " + tool + " result in " + messages);
    }
}
