package ai.lango.fake;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The one JSON mapper of the tests. */
public final class TestJson {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private TestJson() {
    }
}
