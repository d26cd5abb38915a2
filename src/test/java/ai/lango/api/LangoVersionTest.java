package ai.lango.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The version /mcp's serverInfo and the A2A card declare is Lango's, as pom.xml gives it, not ADK's. */
class LangoVersionTest {

    @Test
    void theVersionIsThePomsNotAdks() throws Exception {
        Matcher pom = Pattern.compile("<artifactId>lango</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(pom.find(), "pom.xml names Lango's version");
        assertEquals(pom.group(1), LangoVersion.get());
        assertNotEquals(com.google.adk.Version.JAVA_ADK_VERSION, LangoVersion.get());
    }
}
