package ai.lango.adk.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.provider.ChatMessage;
import ai.lango.provider.ChatRequest;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderException;
import ai.lango.provider.StreamEvent;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.Tool;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** "Model adapter streams LLM responses", "SystemInstruction Forwarding", "convertMessages forwards FunctionCall ID". */
public class ModelAdapterTest {

    /** A provider that replays events and records what it was asked. */
    public static class FakeProvider implements Provider {
        final List<ChatRequest> requests = new ArrayList<>();
        private final List<StreamEvent> events;

        FakeProvider(StreamEvent... events) {
            this.events = List.of(events);
        }

        @Override
        public String id() {
            return "fake";
        }

        @Override
        public OpenStream open(ChatRequest request) {
            requests.add(request);
            return replay(events);
        }

        /** An accepted call whose answer is these events. */
        public static OpenStream replay(List<StreamEvent> events) {
            return new OpenStream() {
                @Override
                public void drain(Consumer<StreamEvent> sink) {
                    events.forEach(sink);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    private static final LlmRequest HELLO = LlmRequest.builder()
            .contents(List.of(Content.builder().role("user").parts(List.of(Part.fromText("hi"))).build())).build();

    private static List<LlmResponse> generate(FakeProvider provider, LlmRequest request, boolean stream) {
        TestSubscriber<LlmResponse> subscriber = new ModelAdapter("m", provider, ModelAdapter.DIRECT)
                .generateContent(request, stream).test();
        subscriber.awaitDone(5, java.util.concurrent.TimeUnit.SECONDS);
        subscriber.assertNoErrors();
        return subscriber.values();
    }

    private static String text(LlmResponse response) {
        return response.content().orElseThrow().parts().orElseThrow().get(0).text().orElseThrow();
    }

    /** Records what calls owed; refuses the next call once {@code refuse} is set. */
    static final class RecordingMeter implements ModelAdapter.CallRecords, ai.lango.turn.TurnMeter {
        final List<String> after = new ArrayList<>();
        boolean refuse;

        @Override
        public void beforeCall() {
            if (refuse) {
                throw new ai.lango.turn.BudgetExceededException("you have spent 70 tokens of 60", java.time.Duration.ofHours(1));
            }
        }

        @Override
        public ai.lango.turn.ModelCall record(ai.lango.turn.TurnContext turn, String agent, String provider, String model,
                                             ChatRequest request, String answer, StreamEvent.Usage reported) {
            after.add(agent + "|" + provider + "|" + model + "|" + answer + "|" + reported);
            return null;
        }

        @Override
        public void called(ai.lango.turn.ModelCall call) {
        }

        @Override
        public List<ai.lango.turn.ModelCall> drain() {
            return List.of();
        }

        /** A turn whose model calls owe this meter. */
        ai.lango.turn.TurnContext turn() {
            return ai.lango.turn.TurnContext.of("u", "s", false).meter(this).build();
        }
    }

    @Test
    void eachCallsUsageIsToldWithItsAgentAndWhatTheProviderReported() {
        RecordingMeter meter = new RecordingMeter();
        ModelAdapter forExecutor = new ModelAdapter("m", new FakeProvider(new StreamEvent.TextDelta("Hi"),
                new StreamEvent.Usage(12, 2, 5), new StreamEvent.Done("stop")), ModelAdapter.DIRECT, 1000, meter)
                .forTurn(meter.turn()).forAgent("executor");
        forExecutor.generateContent(HELLO, false).test().awaitDone(5, java.util.concurrent.TimeUnit.SECONDS).assertNoErrors();
        assertEquals(List.of("executor|fake|m|Hi|Usage[inputTokens=12, outputTokens=2, cachedTokens=5]"), meter.after);

        ModelAdapter silent = new ModelAdapter("m", new FakeProvider(new StreamEvent.TextDelta("Hi"), new StreamEvent.Done("stop")),
                ModelAdapter.DIRECT, 1000, meter).forTurn(meter.turn()).forAgent("planner");
        silent.generateContent(HELLO, false).test().awaitDone(5, java.util.concurrent.TimeUnit.SECONDS).assertNoErrors();
        assertEquals("planner|fake|m|Hi|null", meter.after.get(1), "no usage reported: null, for the meter to estimate");
    }

    @Test
    void aCallItsMeterRefusesNeverReachesTheProvider() {
        RecordingMeter meter = new RecordingMeter();
        meter.refuse = true;
        FakeProvider provider = new FakeProvider(new StreamEvent.TextDelta("Hi"), new StreamEvent.Done("stop"));
        new ModelAdapter("m", provider, ModelAdapter.DIRECT, 1000, meter).forTurn(meter.turn()).forAgent("lango-agent")
                .generateContent(HELLO, false).test()
                .awaitDone(5, java.util.concurrent.TimeUnit.SECONDS).assertError(ai.lango.turn.BudgetExceededException.class);
        assertTrue(provider.requests.isEmpty(), "the provider was not asked");
        assertTrue(meter.after.isEmpty());
    }

    @Test
    void nonStreamingModeAccumulatesCompleteResponse() {
        FakeProvider provider = new FakeProvider(new StreamEvent.TextDelta("Hello "), new StreamEvent.TextDelta("world"),
                new StreamEvent.Done("stop"));
        List<LlmResponse> responses = generate(provider, HELLO, false);

        assertEquals(1, responses.size());
        assertFalse(responses.get(0).partial().orElse(false));
        assertTrue(responses.get(0).turnComplete().orElse(false));
        assertEquals("Hello world", text(responses.get(0)));
        assertEquals("model", responses.get(0).content().orElseThrow().role().orElseThrow());
    }

    @Test
    void nonStreamingModeAccumulatesToolCalls() {
        FakeProvider provider = new FakeProvider(new StreamEvent.ToolCallEvent("call-9", "fs_write", "{\"path\":\"a.txt\"}"),
                new StreamEvent.Done("tool_calls"));
        List<LlmResponse> responses = generate(provider, HELLO, false);

        assertEquals(1, responses.size());
        FunctionCall call = responses.get(0).content().orElseThrow().parts().orElseThrow().get(0).functionCall().orElseThrow();
        assertEquals("call-9", call.id().orElseThrow());
        assertEquals("fs_write", call.name().orElseThrow());
        assertEquals(Map.of("path", "a.txt"), call.args().orElseThrow());
        assertTrue(responses.get(0).turnComplete().orElse(false));
    }

    @Test
    void streamingModeYieldsPartialEventsAndCompleteFinal() {
        FakeProvider provider = new FakeProvider(new StreamEvent.TextDelta("Hello "), new StreamEvent.TextDelta("world"),
                new StreamEvent.Done("stop"));
        List<LlmResponse> responses = generate(provider, HELLO, true);

        assertEquals(3, responses.size());
        assertTrue(responses.get(0).partial().orElse(false));
        assertEquals("Hello ", text(responses.get(0)));
        assertTrue(responses.get(1).partial().orElse(false));
        assertEquals("world", text(responses.get(1)));
        assertFalse(responses.get(2).partial().orElse(true));
        assertTrue(responses.get(2).turnComplete().orElse(false));
        assertEquals("Hello world", text(responses.get(2)));
    }

    @Test
    void providerErrorPropagatesImmediately() {
        ProviderException failure = new ProviderException("fake", ProviderException.Kind.BROKEN_STREAM, "stream broke");
        for (boolean stream : new boolean[] {true, false}) {
            FakeProvider provider = new FakeProvider(new StreamEvent.TextDelta("Hel"), new StreamEvent.Error(failure),
                    new StreamEvent.TextDelta("never"));
            TestSubscriber<LlmResponse> subscriber = new ModelAdapter("m", provider, ModelAdapter.DIRECT)
                    .generateContent(HELLO, stream).test();
            subscriber.awaitDone(5, java.util.concurrent.TimeUnit.SECONDS);
            subscriber.assertError(failure);
            subscriber.assertValueCount(stream ? 1 : 0);
        }
    }

    @Test
    void failureToOpenIsTheProvidersOwnError() {
        ProviderException refused = new ProviderException("fake", ProviderException.Kind.AUTHENTICATION, "fake rejected the key");
        Provider provider = new FakeProvider() {
            @Override
            public OpenStream open(ChatRequest request) {
                throw refused;
            }
        };
        new ModelAdapter("m", provider, ModelAdapter.DIRECT).generateContent(HELLO, false).test().assertError(refused);
    }

    @Test
    void systemInstructionIsPrependedAsSystemMessage() {
        FakeProvider provider = new FakeProvider(new StreamEvent.Done("stop"));
        LlmRequest request = HELLO.toBuilder().config(GenerateContentConfig.builder()
                .systemInstruction(Content.fromParts(Part.fromText("You are Lango."))).build()).build();
        generate(provider, request, false);

        List<ChatMessage> sent = provider.requests.get(0).messages();
        assertEquals(ChatMessage.Role.SYSTEM, sent.get(0).role());
        assertEquals("You are Lango.", sent.get(0).content());
        assertEquals(ChatMessage.Role.USER, sent.get(1).role());
    }

    @Test
    void absentSystemInstructionForwardsOnlyTheContents() {
        FakeProvider provider = new FakeProvider(new StreamEvent.Done("stop"));
        generate(provider, HELLO, false);

        List<ChatMessage> sent = provider.requests.get(0).messages();
        assertEquals(1, sent.size());
        assertEquals(ChatMessage.user("hi"), sent.get(0));
    }

    @Test
    void multiPartSystemInstructionIsJoinedWithNewlines() {
        FakeProvider provider = new FakeProvider(new StreamEvent.Done("stop"));
        LlmRequest request = HELLO.toBuilder().config(GenerateContentConfig.builder()
                .systemInstruction(Content.fromParts(Part.fromText("Identity."), Part.fromText("Safety."))).build()).build();
        generate(provider, request, false);

        assertEquals("Identity.\nSafety.", provider.requests.get(0).messages().get(0).content());
    }

    @Test
    void convertMessagesForwardsFunctionCallId() {
        List<ChatMessage> messages = RequestConversion.convertMessages(List.of(
                Content.builder().role("model").parts(List.of(Part.builder().functionCall(
                        FunctionCall.builder().id("adk-uuid-123").name("exec").args(Map.of("command", "ls")).build()).build())).build(),
                Content.builder().role("user").parts(List.of(Part.builder().functionResponse(
                        FunctionResponse.builder().id("adk-uuid-123").name("exec").response(Map.of("output", "a")).build()).build())).build()));

        assertEquals("adk-uuid-123", messages.get(0).toolCalls().get(0).id());
        assertEquals("{\"command\":\"ls\"}", messages.get(0).toolCalls().get(0).arguments());
        assertEquals(ChatMessage.Role.TOOL, messages.get(1).role());
        assertEquals("adk-uuid-123", messages.get(1).toolCallId());
    }

    @Test
    void convertMessagesFallsBackToCallNameWithoutId() {
        List<ChatMessage> messages = RequestConversion.convertMessages(List.of(
                Content.builder().role("model").parts(List.of(Part.builder().functionCall(
                        FunctionCall.builder().name("search").args(Map.of()).build()).build())).build()));
        assertEquals("call_search", messages.get(0).toolCalls().get(0).id());
    }

    @Test
    void noRequestLeavesWithAnUnansweredToolCall() {
        FakeProvider provider = new FakeProvider(new StreamEvent.Done("stop"));
        LlmRequest request = LlmRequest.builder().contents(List.of(
                Content.builder().role("user").parts(List.of(Part.fromText("go"))).build(),
                Content.builder().role("model").parts(List.of(
                        Part.builder().functionCall(FunctionCall.builder().id("c1").name("fs_read").args(Map.of()).build()).build(),
                        Part.builder().functionCall(FunctionCall.builder().id("c2").name("made_up").args(Map.of()).build()).build())).build(),
                Content.builder().role("user").parts(List.of(Part.builder().functionResponse(
                        FunctionResponse.builder().id("c1").name("fs_read").response(Map.of("content", "x")).build()).build())).build()))
                .build();
        generate(provider, request, false);

        List<ChatMessage> sent = provider.requests.get(0).messages();
        assertEquals(4, sent.size());
        assertEquals("c1", sent.get(2).toolCallId());
        assertEquals("c2", sent.get(3).toolCallId());
        assertTrue(sent.get(3).content().contains("\"error\""));
    }

    @Test
    void aModelCallingTheFrameworksOwnFunctionNamesCallsNoToolAndIsToldSo() {
        FakeProvider provider = new FakeProvider(new StreamEvent.ToolCallEvent("c9", "adk_request_confirmation",
                "{\"toolConfirmation\":{\"confirmed\":true}}"), new StreamEvent.Done("tool_calls"));
        FunctionCall call = generate(provider, HELLO, false).get(0).content().orElseThrow().parts().orElseThrow().get(0)
                .functionCall().orElseThrow();
        assertEquals("reserved__adk_request_confirmation", call.name().orElseThrow(), "no tool and not the framework's own");

        FakeProvider next = new FakeProvider(new StreamEvent.Done("stop"));
        generate(next, LlmRequest.builder().contents(List.of(
                Content.builder().role("user").parts(List.of(Part.fromText("go"))).build(),
                Content.builder().role("model").parts(List.of(Part.builder().functionCall(call).build())).build())).build(), false);
        assertTrue(next.requests.get(0).messages().get(2).content().contains("\\\"adk_request_confirmation\\\" is reserved by the"
                + " server and cannot be called"), next.requests.get(0).messages().get(2).content());
    }

    /** A history cut to the budget after a huge message may begin with its answer: that answer is not sent. */
    @Test
    void aRequestNeverOpensWithAnAssistantMessage() {
        FakeProvider provider = new FakeProvider(new StreamEvent.Done("stop"));
        LlmRequest request = LlmRequest.builder().contents(List.of(
                Content.builder().role("model").parts(List.of(Part.fromText("an answer to a message cut away"))).build(),
                Content.builder().role("model").parts(List.of(Part.builder().functionCall(
                        FunctionCall.builder().id("c1").name("fs_read").args(Map.of()).build()).build())).build(),
                Content.builder().role("user").parts(List.of(Part.builder().functionResponse(
                        FunctionResponse.builder().id("c1").name("fs_read").response(Map.of("content", "x")).build()).build())).build(),
                Content.builder().role("user").parts(List.of(Part.fromText("next question"))).build()))
                .config(GenerateContentConfig.builder().systemInstruction(Content.fromParts(Part.fromText("You are Lango."))).build())
                .build();
        generate(provider, request, false);

        List<ChatMessage> sent = provider.requests.get(0).messages();
        assertEquals(List.of(ChatMessage.Role.SYSTEM, ChatMessage.Role.USER), sent.stream().map(ChatMessage::role).toList());
        assertEquals("next question", sent.get(1).content());
    }

    @Test
    void toolDeclarationsReachTheProviderAsJsonSchema() {
        FakeProvider provider = new FakeProvider(new StreamEvent.Done("stop"));
        LlmRequest request = HELLO.toBuilder().config(GenerateContentConfig.builder().tools(List.of(Tool.builder()
                .functionDeclarations(List.of(FunctionDeclaration.builder().name("transfer_to_agent").description("transfer")
                        .parameters(Schema.builder().type("OBJECT").properties(Map.of("agent_name",
                                Schema.builder().type("STRING").build())).required(List.of("agent_name")).build()).build()))
                .build())).build()).build();
        generate(provider, request, false);

        Map<String, Object> schema = provider.requests.get(0).tools().get(0).parameters();
        assertEquals("object", schema.get("type"));
        assertEquals(Map.of("type", "string"), ((Map<?, ?>) schema.get("properties")).get("agent_name"));
        assertInstanceOf(List.class, schema.get("required"));
    }
}
