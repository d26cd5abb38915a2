package ai.lango.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The HTTP API lives under /api. */
@ApplicationPath("/api")
public class LangoApi extends Application {
}
