package ai.lango.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** JSON answers from the servlets that live beside the JAX-RS application. */
final class ServletJson {

    private ServletJson() {
    }

    /** Writes {@code json} with its status; {@code withBody} false answers a HEAD. */
    static void write(HttpServletResponse response, int status, String json, boolean withBody) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        if (withBody) {
            response.getOutputStream().write(bytes);
        }
    }
}
