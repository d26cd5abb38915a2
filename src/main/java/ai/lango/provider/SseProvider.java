package ai.lango.provider;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the three wire formats share: one transport, the key in a header, an SSE answer. */
abstract class SseProvider implements Provider {

    protected final HttpTransport transport;

    SseProvider(ProviderSettings settings) {
        this.transport = new HttpTransport(settings);
    }

    @Override
    public final String id() {
        return transport.id();
    }

    /** Headers with the API key as {@code name: prefix + key}, when a key is set; none otherwise. */
    protected final Map<String, String> keyHeader(String name, String prefix) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (transport.settings().apiKey() != null) {
            headers.put(name, prefix + transport.settings().apiKey());
        }
        return headers;
    }

    /** Posts the request and reads the answer with the format's decoder; {@code abort} ends the wait for the answer. */
    protected final OpenStream stream(ai.lango.turn.TurnAbort abort, String path, Map<String, String> headers, String body,
                                      SseStream.Decoder decoder) {
        return new SseStream(transport, transport.post(transport.resolve(path), headers, body, abort), decoder);
    }
}
