package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import ai.lango.masking.SecretMask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MaskedProviderTest {

    private static final String KEY = "sk-proj-abcdef123456";

    @AfterEach
    void forget() {
        SecretMask.configured(Map.of());
        SecretMask.stored(Map.of());
    }

    /** A provider that records what it was sent and answers with these events. */
    private static final class Scripted implements Provider {
        final List<ChatRequest> sent = new ArrayList<>();
        final List<StreamEvent> answer;

        Scripted(List<StreamEvent> answer) {
            this.answer = answer;
        }

        @Override
        public String id() {
            return "scripted";
        }

        @Override
        public OpenStream open(ChatRequest request) {
            sent.add(request);
            return new OpenStream() {
                @Override
                public void drain(java.util.function.Consumer<StreamEvent> sink) {
                    answer.forEach(sink);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @Test
    void aModelIsSentNoSecretAndItsStreamedAnswerCarriesNoneEvenSplitAcrossChunks() {
        SecretMask.stored(Map.of(KEY, new SecretMask.Stored("openai", "alice", false, java.util.Set.of())));
        Scripted model = new Scripted(List.of(new StreamEvent.TextDelta("the key is sk-pr"), new StreamEvent.TextDelta("oj-abc"),
                new StreamEvent.TextDelta("def123456, and sk-"), new StreamEvent.ToolCallEvent("c1", "exec",
                        "{\"command\":\"echo " + KEY + "\"}"), new StreamEvent.Done("stop")));
        List<StreamEvent> seen = new ArrayList<>();
        try (Provider.OpenStream stream = new MaskedProvider(model).open(new ChatRequest("m", List.of(ChatMessage.system("sys " + KEY),
                ChatMessage.user("use " + KEY), ChatMessage.assistant("", List.of(new ChatMessage.ToolCall("c0", "exec",
                        "{\"k\":\"" + KEY + "\"}"))), ChatMessage.tool("c0", "exec", "out " + KEY)), List.of(), null, null).forTurn(new ai.lango.masking.Audience("alice", false), new ai.lango.turn.TurnAbort()))) {
            stream.drain(seen::add);
        }
        assertFalse(model.sent.get(0).toString().contains(KEY), model.sent.get(0).toString());
        assertEquals("use [SECRET:openai]", model.sent.get(0).messages().get(1).content());
        StringBuilder text = new StringBuilder();
        for (StreamEvent event : seen) {
            if (event instanceof StreamEvent.TextDelta delta) {
                assertFalse(delta.text().contains("sk-pr"), "no part of the key goes out before it is known not to be one");
                text.append(delta.text());
            }
        }
        assertEquals("the key is [SECRET:openai], and sk-", text.toString(), "held text is let go before the tool call");
        assertEquals("{\"command\":\"echo [SECRET:openai]\"}", ((StreamEvent.ToolCallEvent) seen.get(seen.size() - 2)).arguments());
        assertEquals(new StreamEvent.Done("stop"), seen.get(seen.size() - 1), "nothing follows the end");
    }
}
