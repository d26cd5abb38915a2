package ai.lango.provider;

import ai.lango.net.http.IdleTimeoutBody;
import ai.lango.net.sse.SseReader;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * An accepted request whose body is a server-sent event stream. The loop, the failure mapping and
 * the "exactly one Done or Error" rule live here; what the events mean is the {@link Decoder}'s
 * business, one per wire format.
 */
final class SseStream implements Provider.OpenStream {

    /** Turns one provider's events into {@link StreamEvent}s; holds the state of one answer. */
    interface Decoder {

        /**
         * Handles one event. Returns true once the provider's terminal marker has been seen and the
         * Done was emitted (nothing more is read then). Throws ProviderException to end with Error.
         */
        boolean onEvent(SseReader.Event event, Consumer<StreamEvent> sink);

        /**
         * The body ended without {@link #onEvent} returning true: emit Done if the answer is known
         * to be complete, else throw (BROKEN_STREAM).
         */
        void onEnd(Consumer<StreamEvent> sink);
    }

    private final HttpTransport transport;
    private final InputStream body;
    private final Decoder decoder;
    private volatile boolean closed;
    private boolean drained;

    SseStream(HttpTransport transport, InputStream body, Decoder decoder) {
        this.transport = transport;
        this.body = body;
        this.decoder = decoder;
    }

    @Override
    public void drain(Consumer<StreamEvent> sink) {
        if (drained) {
            sink.accept(new StreamEvent.Error(transport.failure(ProviderException.Kind.BROKEN_STREAM,
                    transport.id() + " answer was already read", null)));
            return;
        }
        drained = true;
        try (SseReader reader = new SseReader(body, Provider.MAX_ANSWER_CHARS, Provider.MAX_ANSWER_CHARS)) {
            SseReader.Event event;
            long read = 0;
            while ((event = reader.next()) != null) {
                read += event.data().length();
                if (read > Provider.MAX_ANSWER_CHARS) {
                    // A model that writes without end must not fill the heap: its answer ends here, as an error.
                    throw transport.failure(ProviderException.Kind.BROKEN_STREAM, transport.id()
                            + " sent an answer of more than " + Provider.MAX_ANSWER_CHARS + " characters; it was cut off", null);
                }
                if (decoder.onEvent(event, sink)) {
                    return;
                }
            }
            decoder.onEnd(sink);
        } catch (ProviderException e) {
            sink.accept(new StreamEvent.Error(e));
        } catch (IOException e) {
            if (closed && !(e instanceof IdleTimeoutBody.IdleTimeoutException)) {
                sink.accept(new StreamEvent.Error(transport.failure(ProviderException.Kind.BROKEN_STREAM,
                        transport.id() + " answer was abandoned before it was complete", e)));
            } else {
                sink.accept(new StreamEvent.Error(transport.streamFailure(e)));
            }
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            body.close();
        } catch (IOException e) {
            // closing is best effort; the connection is dropped either way
        }
    }

    /** Parses one event's data as JSON; a malformed chunk ends the answer as a broken stream. */
    static JsonNode json(HttpTransport transport, String data) {
        try {
            JsonNode node = HttpTransport.JSON.readTree(data);
            if (node == null || node.isMissingNode()) {
                throw new IOException("empty");
            }
            return node;
        } catch (IOException e) {
            throw transport.failure(ProviderException.Kind.BROKEN_STREAM,
                    transport.id() + " sent a chunk that is not JSON: " + transport.excerpt(data), e);
        }
    }

    /** "" for absent or JSON-null text fields. */
    static String text(JsonNode node) {
        return node == null || !node.isTextual() ? "" : node.asText();
    }
}
