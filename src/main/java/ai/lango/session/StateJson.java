package ai.lango.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/** State maps as stored: one JSON object per scope. */
final class StateJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {
    };

    private StateJson() {
    }

    static String write(Map<String, Object> state) {
        try {
            return MAPPER.writeValueAsString(state);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("state is not serialisable as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static Map<String, Object> read(String json) {
        if (json == null || json.isBlank()) {
            return new LinkedHashMap<>();
        }
        try {
            return MAPPER.readValue(json, MAP);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored state is not a JSON object: " + e.getOriginalMessage(), e);
        }
    }

    /** Applies a delta to a stored JSON object and returns the new JSON. */
    static String apply(String json, Map<String, Object> delta) {
        Map<String, Object> state = read(json);
        delta.forEach((key, value) -> {
            if (value == StateDelta.REMOVED) {
                state.remove(key);
            } else {
                state.put(key, value);
            }
        });
        return write(state);
    }
}
