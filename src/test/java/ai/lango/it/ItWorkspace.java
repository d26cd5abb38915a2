package ai.lango.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tools' workspace of the shared test server (LANGO_TOOLS_WORKSPACE, which the pom gives the test JVM and the
 * server alike, as ItPorts reads the ports), made when first asked for:
 * a test that plants a file there must not depend on an earlier test's server having made it.
 */
final class ItWorkspace {

    private ItWorkspace() {
    }

    /** The workspace, existing. */
    static Path dir() {
        Path dir = Path.of(System.getenv().getOrDefault("LANGO_TOOLS_WORKSPACE", "target/it-workspace"));
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
