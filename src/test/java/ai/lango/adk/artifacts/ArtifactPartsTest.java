package ai.lango.adk.artifacts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.lango.artifact.Artifact;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.adk.JsonBaseModel;
import com.google.genai.types.Blob;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parts as an artifact's type and bytes, and back, and the JSON ADK's artifact routes answer with. */
class ArtifactPartsTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', (byte) 0xff, (byte) 0xfe, 0x3e, 0x3f};

    @Test
    void inlineDataIsKeptAsItsTypeAndBytesAndComesBackTheSame() {
        ArtifactParts.Content content = ArtifactParts.content(Part.fromBytes(PNG, "image/png"));
        assertEquals("image/png", content.mimeType());
        assertArrayEquals(PNG, content.data());
        Part back = ArtifactParts.part(new Artifact("shot.png", 0, content.mimeType(), content.data(), Instant.EPOCH));
        assertEquals("image/png", back.inlineData().orElseThrow().mimeType().orElseThrow());
        assertArrayEquals(PNG, back.inlineData().orElseThrow().data().orElseThrow());
    }

    @Test
    void aTextPartIsKeptAsPlainTextInUtf8AndComesBackAsInlineData() {
        ArtifactParts.Content content = ArtifactParts.content(Part.fromText("Grüße"));
        assertEquals("text/plain", content.mimeType());
        assertArrayEquals("Grüße".getBytes(StandardCharsets.UTF_8), content.data());
        Part back = ArtifactParts.part(new Artifact("note.txt", 0, content.mimeType(), content.data(), Instant.EPOCH));
        assertEquals("Grüße", new String(back.inlineData().orElseThrow().data().orElseThrow(), StandardCharsets.UTF_8));
    }

    @Test
    void inlineDataWithoutATypeIsOctetStream() {
        Part untyped = Part.builder().inlineData(Blob.builder().data(PNG).build()).build();
        assertEquals("application/octet-stream", ArtifactParts.content(untyped).mimeType());
    }

    @Test
    void aPartWithNeitherDataNorTextIsRefused() {
        Part call = Part.builder().functionCall(FunctionCall.builder().name("f").args(Map.of()).build()).build();
        assertThrows(IllegalArgumentException.class, () -> ArtifactParts.content(call));
        assertThrows(IllegalArgumentException.class, () -> ArtifactParts.content(null));
    }

    /** The dev UI reads inlineData.data as base64 (standard or URL-safe, it turns either into a data: URL). */
    @Test
    void thePartsJsonIsInlineDataWithItsTypeAndTheBytesInBase64() throws Exception {
        Part part = ArtifactParts.part(new Artifact("shot.png", 3, "image/png", PNG, Instant.EPOCH));
        JsonNode json = new ObjectMapper().readTree(JsonBaseModel.getMapper().writeValueAsString(part));
        assertEquals(1, json.size(), json.toString());
        assertEquals("image/png", json.path("inlineData").path("mimeType").asText());
        String data = json.path("inlineData").path("data").asText();
        byte[] decoded = data.contains("-") || data.contains("_") ? Base64.getUrlDecoder().decode(data) : Base64.getDecoder().decode(data);
        assertArrayEquals(PNG, decoded);
    }
}
