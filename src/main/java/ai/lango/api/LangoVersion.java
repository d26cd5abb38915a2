package ai.lango.api;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Lango's own version, as the build wrote it (ai/lango/build.properties, the one resource Maven filters): what the
 * A2A agent card and /mcp's serverInfo declare. Not ADK's version, which ADK's API reports for itself.
 */
public final class LangoVersion {

    static final String UNKNOWN = "0.0.0";
    private static final String BUILD_PROPERTIES = "/ai/lango/build.properties";
    private static final String VERSION = read();

    private LangoVersion() {
    }

    public static String get() {
        return VERSION;
    }

    private static String read() {
        try (InputStream in = LangoVersion.class.getResourceAsStream(BUILD_PROPERTIES)) {
            if (in == null) {
                return UNKNOWN;
            }
            Properties build = new Properties();
            build.load(in);
            String version = build.getProperty("version", "").trim();
            return version.isEmpty() || version.startsWith("${") ? UNKNOWN : version;
        } catch (IOException e) {
            return UNKNOWN; // unreadable: a version that says so
        }
    }
}
