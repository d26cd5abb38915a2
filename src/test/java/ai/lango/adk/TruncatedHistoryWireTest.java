package ai.lango.adk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.adk.models.ModelAdapter;
import ai.lango.adk.runner.LangoRunner;
import ai.lango.adk.runner.NoopTool;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.provider.ProviderSettings;
import ai.lango.session.HistoryTruncation;
import ai.lango.session.Message;
import ai.lango.session.SessionStore;
import ai.lango.session.StateDelta;
import ai.lango.session.StoredSession;
import ai.lango.session.TokenEstimator;
import ai.lango.session.ToolCall;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.runner.Runner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What each provider receives when the stored history was cut to the token budget: the
 * conversation opens with a user message, on OpenAI's, Anthropic's and Gemini's wire format.
 * The history goes the real way: the session service's view, ADK's runner and agent, the model
 * adapter and the provider's HTTP request to a fake server that records it.
 */
class TruncatedHistoryWireTest {

    private static final Instant T = Instant.ofEpochMilli(1_700_000_000_000L);

    private final FakeLlmServer fake = FakeLlmServer.start();

    @AfterEach
    void stop() {
        fake.close();
    }

    /** One stored session whose view is its history truncated as the database store does it. */
    static final class StoredHistory extends SessionStore {
        final List<Message> messages = new ArrayList<>();
        private final StoredSession session = new StoredSession("s", "lango", "user", Map.of(), T, T);

        @Override
        public View open(SessionRef key, int budget) {
            return new View(session, HistoryTruncation.truncate(List.copyOf(messages), budget), Map.of(), Map.of());
        }

        @Override
        public Optional<StoredSession> find(SessionRef key) {
            return Optional.of(session);
        }

        @Override
        public Optional<Message> newestCompaction(SessionRef key) {
            return messages.stream().filter(m -> ai.lango.session.Roles.COMPACTION.equals(m.role())).reduce((a, b) -> b);
        }

        @Override
        public StoredSession getOrCreate(SessionRef key) {
            return session;
        }

        @Override
        public void append(SessionRef key, Message message, StateDelta delta, Instant when) {
            if (message != null) {
                messages.add(message);
            }
        }

        @Override
        public Map<String, Object> appState(String appName) {
            return Map.of();
        }

        @Override
        public Map<String, Object> userState(String appName, String userId) {
            return Map.of();
        }
    }

    private static Message message(String role, String content, ToolCall... calls) {
        return new Message(role, content, T, role.equals("user") ? "user" : "lango-agent", List.of(calls), null);
    }

    /** An old question with a tool call, then a short exchange. */
    private static List<Message> history() {
        return List.of(
                message("user", "list the files " + "x".repeat(400)),
                message("assistant", "", new ToolCall("c1", "fs_list", "{\"path\":\".\"}", null)),
                message("tool", "", new ToolCall("c1", "fs_list", null, "{\"entries\":[\"a.txt\"]}")),
                message("assistant", "There is a.txt."),
                message("user", "thanks"),
                message("assistant", "welcome"));
    }

    /** The budget that keeps exactly {@code history.subList(from, size)} before the user-first rule. */
    private static int budgetFrom(List<Message> history, int from) {
        return TokenEstimator.messagesTokens(history.subList(from, history.size()));
    }

    /** Takes one turn through the provider {@code id} with the stored history cut at {@code budget}; the request the fake got. */
    private JsonNode turn(String id, String baseUrl, Reply answer, List<Message> stored, int budget) {
        fake.enqueue(answer);
        StoredHistory store = new StoredHistory();
        store.messages.addAll(stored);
        LangoSettings settings = TestSettings.of(Path.of("/tmp/lango"), "lango.model", "test-model",
                "lango.agent.error-correction", "false", "lango.agent.request-timeout", "PT30S",
                "lango.agent.token-budget", String.valueOf(budget));
        Provider provider = ProviderCatalog.create(new ProviderSettings(id, baseUrl, "test-key", null, null));
        LlmAgent agent = LlmAgent.builder().name(Names.SINGLE_AGENT).description(Names.SINGLE_AGENT_DESCRIPTION)
                .model(new ModelAdapter("test-model", provider, ModelAdapter.DIRECT)).instruction("You are Lango.")
                .tools(new NoopTool("fs_list")).build();
        Runner adk = Runner.builder().agent(agent).appName("lango").sessionService(new JpaSessionService(store, settings))
                .artifactService(new InMemoryArtifactService()).build();
        new LangoRunner(adk, agent, new LangoRunner.Limits(25, false, Duration.ofSeconds(30)), LearnedFixes.NONE)
                .runAndCollect("user", "s", "new question", false, e -> { });
        return fake.last().json();
    }

    private JsonNode openAi(int budget) {
        return turn(ProviderCatalog.OPENAI, fake.baseUrl() + "/v1", Reply.openAiText("ok"), history(), budget);
    }

    private JsonNode anthropic(int budget) {
        return turn(ProviderCatalog.ANTHROPIC, fake.baseUrl(), Reply.anthropicText("ok"), history(), budget);
    }

    private JsonNode gemini(int budget) {
        return turn(ProviderCatalog.GEMINI, fake.baseUrl(), Reply.geminiText("ok"), history(), budget);
    }

    /** The first message after the system prompt: role and text. */
    private static String openAiFirst(JsonNode body) {
        JsonNode messages = body.get("messages");
        assertEquals("system", messages.get(0).get("role").asText());
        return messages.get(1).get("role").asText() + ": " + messages.get(1).get("content").asText();
    }

    private static String anthropicFirst(JsonNode body) {
        JsonNode first = body.get("messages").get(0);
        JsonNode content = first.get("content");
        String text = content.isTextual() ? content.asText() : content.get(0).path("text").asText(content.get(0).path("type").asText());
        return first.get("role").asText() + ": " + text;
    }

    private static String geminiFirst(JsonNode body) {
        JsonNode first = body.get("contents").get(0);
        JsonNode part = first.get("parts").get(0);
        return first.get("role").asText() + ": " + (part.has("text") ? part.get("text").asText() : part.fieldNames().next());
    }

    @Test
    void openAiGetsAUserMessageFirstWhenTheCutLandsOnAToolCall() {
        assertEquals("user: thanks", openAiFirst(openAi(budgetFrom(history(), 1))));
    }

    @Test
    void openAiGetsTheNewQuestionFirstWhenNoStoredUserMessageFits() {
        assertEquals("user: new question", openAiFirst(openAi(budgetFrom(history(), 5))));
    }

    @Test
    void openAiGetsTheWholeHistoryWhenNothingWasCut() {
        assertEquals("user: list the files " + "x".repeat(400), openAiFirst(openAi(100_000)));
    }

    @Test
    void anthropicGetsAUserMessageFirstWhenTheCutLandsOnAToolCall() {
        assertEquals("user: thanks", anthropicFirst(anthropic(budgetFrom(history(), 1))));
    }

    @Test
    void anthropicGetsAUserMessageFirstWhenTheCutLandsOnAToolResult() {
        assertEquals("user: thanks", anthropicFirst(anthropic(budgetFrom(history(), 2))));
    }

    @Test
    void anthropicGetsTheNewQuestionFirstWhenNoStoredUserMessageFits() {
        assertEquals("user: new question", anthropicFirst(anthropic(budgetFrom(history(), 5))));
    }

    @Test
    void geminiGetsAUserTurnFirstWhenTheCutLandsOnAFunctionCall() {
        assertEquals("user: thanks", geminiFirst(gemini(budgetFrom(history(), 1))));
    }

    @Test
    void geminiGetsAUserTurnFirstWhenTheCutLandsOnAnAnswer() {
        assertEquals("user: thanks", geminiFirst(gemini(budgetFrom(history(), 3))));
    }

    @Test
    void geminiGetsTheNewQuestionFirstWhenNoStoredUserMessageFits() {
        assertEquals("user: new question", geminiFirst(gemini(budgetFrom(history(), 5))));
    }
}
