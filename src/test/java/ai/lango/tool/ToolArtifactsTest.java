package ai.lango.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one shape of a tool result's artifact reference, written and read back. */
class ToolArtifactsTest {

    @Test
    void referenceNamesTheArtifactItsVersionTypeAndSizeInThatOrder() {
        Map<String, Object> reference = ToolArtifacts.reference("shot.png", 2, "image/png", 48_213);
        assertEquals(List.of("artifact", "version", "mimeType", "bytes"), List.copyOf(reference.keySet()));
        assertEquals(Map.of("artifact", "shot.png", "version", 2, "mimeType", "image/png", "bytes", 48_213L), reference);
    }

    @Test
    void aResultHoldingAReferenceBesideItsOwnKeysIsReadBack() {
        Map<String, Object> result = new HashMap<>(Map.of("url", "https://example.com", "title", "Example"));
        result.putAll(ToolArtifacts.reference("shot.png", 0, "image/png", 10));
        assertEquals(Optional.of(Map.entry("shot.png", 0)), ToolArtifacts.of(result));
    }

    @Test
    void aReferenceThatWentThroughJsonIsStillRead() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> back = json.readValue(json.writeValueAsString(ToolArtifacts.reference("a b.png", 7, "image/png", 1)),
                new TypeReference<>() {
                });
        assertEquals(Optional.of(Map.entry("a b.png", 7)), ToolArtifacts.of(back));
        assertEquals(Optional.of(Map.entry("x", 3)), ToolArtifacts.of(Map.of("artifact", "x", "version", 3.0)));
        assertEquals(Optional.of(Map.entry("x", 3)), ToolArtifacts.of(Map.of("artifact", "x", "version", 3L)));
    }

    @Test
    void resultsWithoutAWholeReferenceHoldNone() {
        assertEquals(Optional.empty(), ToolArtifacts.of(null));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("ok", true)));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("artifact", "x")));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("version", 1)));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("artifact", " ", "version", 1)));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("artifact", "x", "version", "1")));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("artifact", "x", "version", -1)));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("artifact", "x", "version", 1.5)));
        assertEquals(Optional.empty(), ToolArtifacts.of(Map.of("artifact", 5, "version", 1)));
    }

    @Test
    void aReferenceNeedsANameAndAVersionOfZeroOrMore() {
        assertThrows(IllegalArgumentException.class, () -> ToolArtifacts.reference(" ", 0, "image/png", 1));
        assertThrows(IllegalArgumentException.class, () -> ToolArtifacts.reference("x", -1, "image/png", 1));
    }
}
