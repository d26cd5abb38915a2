package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turns.Turns;
import ai.lango.config.LangoSettings;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.session.Message;
import ai.lango.session.SessionStore;
import ai.lango.session.ToolCall;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnFailedException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Single-agent chat end to end on the real server: the configured OpenAI-compatible provider is a
 * fake LLM server (started inside the server JVM on the port the configuration names) that speaks
 * the real streaming wire format and records what the model was sent.
 */
@ExtendWith(ArquillianExtension.class)
@ItClassOrder.OnTheDefaultDeployment
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class ChatIT extends FakeLlmIT {

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @Inject
    Turns turns;

    @Inject
    SessionStore store;

    @Inject
    LangoSettings settings;

    private FakeLlmServer fake() {
        return fake;
    }

    private String chat(String key, String text) {
        return turns.await(turns.start(ai.lango.security.Identity.OPERATOR, Names.DEFAULT_USER, key, text, true,
                Turns.Listener.of(event -> { })));
    }

    @Test
    void modelCallsFsWriteAndGetsTheResultWithTheSameCallId() throws Exception {
        String key = "chat-" + UUID.randomUUID();
        String file = "it/" + key + ".txt";
        fake().enqueue(Reply.openAiToolCall("call_w1", "fs_write", "{\"path\":\"" + file + "\",\"content\":\"hello\"}"))
                .enqueue(Reply.openAiText("Wrote ", "the file."));

        assertEquals("Wrote the file.", chat(key, "Write hello to " + file));

        assertEquals("hello", Files.readString(settings.tools().workspace().resolve(file)));
        JsonNode second = fake().requests().get(1).json();
        JsonNode call = find(second, "assistant").get("tool_calls").get(0);
        assertEquals("call_w1", call.get("id").asText());
        assertEquals("fs_write", call.get("function").get("name").asText());
        JsonNode result = find(second, "tool");
        assertEquals("call_w1", result.get("tool_call_id").asText());
        assertTrue(result.get("content").asText().contains("\"bytes\":5"), result.toString());
        assertEquals("Bearer sk-it-secret-key", fake().requests().get(0).header("authorization"));
        assertEquals("system", second.get("messages").get(0).get("role").asText());

        List<Message> stored = store.messages(SessionRef.of(Names.DEFAULT_USER, key));
        assertEquals(List.of("user", "assistant", "tool", "assistant"), stored.stream().map(Message::role).toList());
        assertEquals("call_w1", stored.get(1).toolCalls().get(0).id());
        assertEquals("call_w1", stored.get(2).toolCalls().get(0).id());
        assertEquals("Wrote the file.", stored.get(3).content());

        fake().enqueue(Reply.openAiText("You're welcome."));
        assertEquals("You're welcome.", chat(key, "Thanks!"));
        JsonNode third = fake().last().json();
        assertEquals("call_w1", find(third, "assistant").get("tool_calls").get(0).get("id").asText());
        assertEquals("call_w1", find(third, "tool").get("tool_call_id").asText());
        JsonNode messages = third.get("messages");
        assertEquals("Thanks!", messages.get(messages.size() - 1).get("content").asText());
    }

    @Test
    void aMegabyteToolArgumentCostsTheModelABoundedRequest() throws Exception {
        String key = "chat-" + UUID.randomUUID();
        String file = "it/" + key + "-big.txt";
        String megabyte = "x".repeat(1_000_000);
        fake().enqueue(Reply.openAiToolCall("call_big", "fs_write", "{\"path\":\"" + file + "\",\"content\":\"" + megabyte + "\"}"))
                .enqueue(Reply.openAiToolCall("call_kb", "save_knowledge",
                        "{\"key\":\"" + key + "\",\"category\":\"fact\",\"content\":\"" + megabyte + "\"}"))
                .enqueue(Reply.openAiText("Done."));

        assertEquals("Done.", chat(key, "Write a big file and remember it"));

        assertEquals(1_000_000, Files.size(settings.tools().workspace().resolve(file)), "the tool had the whole argument");
        String last = fake().last().body();
        assertTrue(last.length() < 3 * settings.agent().toolIoMaxChars() + 20_000,
                "the request after two megabyte arguments is bounded: " + last.length() + " characters");
        JsonNode call = find(fake().last().json(), "assistant").get("tool_calls").get(0);
        String arguments = call.get("function").get("arguments").asText();
        assertTrue(arguments.contains("more characters cut") && arguments.contains("the tool received them whole"), arguments.substring(0, 200));
        assertTrue(last.contains("at most " + settings.knowledge().maxEntryChars() + " are accepted (lango.knowledge.max-entry-chars)"),
                "save_knowledge refused the megabyte with an error naming the limit");
    }

    @Test
    void toolCallsOfTwelveAndTwentyMebibytesAreRecordedBounded() throws Exception {
        for (int mebibytes : new int[] {12, 20}) {
            String key = "chat-big-" + mebibytes + "-" + UUID.randomUUID();
            String file = "it/" + key + ".txt";
            fake().reset().enqueue(Reply.openAiToolCall("call_big", "fs_write", "{\"path\":\"" + file + "\",\"content\":\""
                            + "y".repeat(mebibytes * 1024 * 1024) + "\"}"))
                    .enqueue(Reply.openAiText("Written."));
            assertEquals("Written.", chat(key, "write " + mebibytes + " MiB"));
            assertEquals(mebibytes * 1024L * 1024, Files.size(settings.tools().workspace().resolve(file)), "written whole");
            List<Message> stored = store.messages(SessionRef.of(Names.DEFAULT_USER, key));
            ToolCall call = stored.get(1).toolCalls().get(0);
            assertEquals("call_big", call.id(), "the call is recorded");
            assertTrue(call.input().contains("more characters cut") && call.input().length() < 2_000_000, "bounded");
            assertEquals("Written.", stored.get(3).content());
        }
    }

    @Test
    void turnLimitStopsAModelThatCallsToolsForever() {
        String key = "loop-" + UUID.randomUUID();
        for (int i = 0; i < 6; i++) {
            fake().enqueue(Reply.openAiToolCall("call_l" + i, "fs_list", "{\"path\":\".\"}"));
        }
        TurnFailedException error = assertThrows(TurnFailedException.class, () -> chat(key, "loop"));
        assertEquals("agent exceeded maximum turn limit (3)", error.getMessage());
        assertEquals(4, fake().requests().size());
    }

    @Test
    void providerAnswering500TwiceThen200Succeeds() {
        fake().enqueue(Reply.status(500, "{\"error\":{\"message\":\"overloaded\"}}"))
                .enqueue(Reply.status(500, "{\"error\":{\"message\":\"overloaded\"}}"))
                .enqueue(Reply.openAiText("Recovered."));
        assertEquals("Recovered.", chat("retry-" + UUID.randomUUID(), "hello"));
        assertEquals(3, fake().requests().size());
    }

    @Test
    void providerAnswering401GivesAClearErrorWithoutTheKey() {
        String key = "auth-" + UUID.randomUUID();
        fake().enqueue(Reply.status(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-it-secret-key\"}}"));

        TurnFailedException error = assertThrows(TurnFailedException.class, () -> chat(key, "hello"));

        assertTrue(error.getMessage().contains("openai"), error.getMessage());
        assertTrue(error.getMessage().contains("lango.providers.openai.api-key"), error.getMessage());
        assertFalse(error.getMessage().contains("sk-it-secret-key"));
        assertEquals(1, fake().requests().size(), "authentication failures are not retried");
        assertEquals("hello", store.messages(SessionRef.of(Names.DEFAULT_USER, key)).get(0).content(), "the user message was durable before the model was called");
    }

    private static JsonNode find(JsonNode request, String role) {
        for (JsonNode message : request.get("messages")) {
            if (role.equals(message.get("role").asText())) {
                return message;
            }
        }
        throw new AssertionError("no " + role + " message in " + request);
    }
}
