package ai.lango.api;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The one JSON mapper of the edges: thread-safe once configured, so shared. */
final class ApiJson {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private ApiJson() {
    }
}
