package ai.lango.provider;

import ai.lango.masking.Audience;
import ai.lango.masking.SecretMask;
import ai.lango.masking.StreamMasker;
import java.util.List;
import java.util.function.Consumer;

/**
 * Every model call, masked both ways for the request's reader: no known secret in what a model is sent
 * (the agent's turns and the calls on the side: observer, reflector, triple extraction), and none in
 * what it answers — its text as it streams (a secret split across chunks included; a fixed window of
 * the latest text is held back, until the next chunk or the end, whatever it holds) and its tool calls'
 * arguments. The model is the reader's: a secret the reader may not use is unnamed both ways.
 * ProviderCatalog wraps every provider in one.
 */
final class MaskedProvider implements Provider {

    private final Provider provider;

    MaskedProvider(Provider provider) {
        this.provider = provider;
    }

    /** The client it masks. */
    Provider masked() {
        return provider;
    }

    @Override
    public String id() {
        return provider.id();
    }

    @Override
    public OpenStream open(ChatRequest request) throws ProviderException {
        Audience reader = request.reader();
        OpenStream stream = provider.open(masked(request));
        return new OpenStream() {
            @Override
            public void drain(Consumer<StreamEvent> sink) {
                StreamMasker text = SecretMask.stream(reader);
                stream.drain(event -> {
                    if (event instanceof StreamEvent.TextDelta delta) {
                        String out = text.next(delta.text());
                        if (!out.isEmpty()) {
                            sink.accept(new StreamEvent.TextDelta(out));
                        }
                        return;
                    }
                    if (text.holding()) {
                        sink.accept(new StreamEvent.TextDelta(text.finish()));
                    }
                    sink.accept(event instanceof StreamEvent.ToolCallEvent call
                            ? new StreamEvent.ToolCallEvent(call.id(), call.name(), SecretMask.mask(call.arguments(), reader)) : event);
                });
                if (text.holding()) {
                    sink.accept(new StreamEvent.TextDelta(text.finish()));
                }
            }

            @Override
            public void close() {
                stream.close();
            }
        };
    }

    static ChatRequest masked(ChatRequest request) {
        if (SecretMask.scanner().isEmpty()) {
            return request;
        }
        List<ChatMessage> messages = request.messages().stream().map(m -> masked(m, request.reader())).toList();
        return new ChatRequest(request.model(), messages, request.tools(), request.temperature(), request.maxTokens(),
                request.reader(), request.abort());
    }

    private static ChatMessage masked(ChatMessage message, Audience reader) {
        List<ChatMessage.ToolCall> calls = message.toolCalls() == null ? null : message.toolCalls().stream()
                .map(c -> new ChatMessage.ToolCall(c.id(), c.name(), SecretMask.mask(c.arguments(), reader))).toList();
        return new ChatMessage(message.role(), SecretMask.mask(message.content(), reader), calls, message.toolCallId(),
                message.toolName());
    }
}
