package ai.lango.api;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The error page of the whole application (WEB-INF/web.xml): whatever error the container answers
 * itself goes out as {"error":{"code","message"}} with its status, without the exception's text.
 */
@WebServlet(name = "Error", urlPatterns = "/error")
public class ErrorServlet extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object attribute = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = attribute instanceof Integer code && code >= 400 ? code : HttpServletResponse.SC_NOT_FOUND;
        ServletJson.write(response, status, body(status), !"HEAD".equals(request.getMethod()));
    }

    /** The JSON error body the application answers a status with when nothing more specific is said. */
    static String body(int status) {
        return ApiError.body(code(status), message(status));
    }

    private static String code(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            default -> status >= 500 ? "internal_error" : "http_" + status;
        };
    }

    private static String message(int status) {
        return switch (status) {
            case 400 -> "the request cannot be read: a URL may not contain an encoded '/' or '\\', a '\\' or"
                    + " control characters; a stored session whose key has them is reached with GET or DELETE"
                    + " /api/admin/sessions?key=…";
            case 404 -> "nothing here";
            case 405 -> "that method is not allowed here";
            default -> status >= 500 ? "the request failed" : "HTTP " + status;
        };
    }
}
