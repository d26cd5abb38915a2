package ai.lango.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** JSON answers from the servlets that live beside the JAX-RS application. */
public final class ServletJson {

    private ServletJson() {
    }

    /** Answers 405 unless the request is a GET or a HEAD; true when it did. {@code what} is read with GET. */
    public static boolean refusedUnlessRead(HttpServletRequest request, HttpServletResponse response, String what)
            throws IOException {
        String method = request.getMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            return false;
        }
        response.setHeader("Allow", "GET, HEAD");
        write(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                ApiError.body("method_not_allowed", what + " is read with GET"), true);
        return true;
    }

    /** Writes {@code json} with its status; {@code withBody} false answers a HEAD. */
    public static void write(HttpServletResponse response, int status, String json, boolean withBody) throws IOException {
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
