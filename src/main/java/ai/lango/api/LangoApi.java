package ai.lango.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The HTTP API lives under /api. */
@ApplicationPath(LangoApi.PATH)
public class LangoApi extends Application {

    /** Where the JAX-RS resources live, under the context root. */
    public static final String PATH = "/api";
}
