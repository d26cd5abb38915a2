package ai.lango.a2a;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON mapping of the A2A wire model: absent fields are left out, unknown fields are ignored
 * (newer peers add fields; A2A v0.3 has many optional ones Lango does not use).
 */
public final class A2aJson {

    /** Thread-safe once configured; never reconfigured. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private A2aJson() {
    }
}
