package ai.lango.api.adk;

import ai.lango.api.ApiError;
import ai.lango.api.ServletJson;
import ai.lango.api.SignInCookie;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.turn.Names;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * ADK's dev UI at /dev-ui/, served from the browser/ bundle inside the google-adk-dev jar (in
 * WEB-INF/lib, without its Spring dependencies). Being read from the jar at run time rather than
 * unpacked by a build step, it works after any build, {@code mvn liberty:run} on a fresh clone
 * included. Lango's own files under /dev-ui/ in the WAR come first: the runtime configuration
 * pointing the UI at /api, and the fonts the bundle would otherwise load from the internet
 * (index.html is given a link to them in place of its Google Fonts rules). With authentication on, it is a
 * signed-in person's: see {@link #signedIn}.
 */
@WebServlet(name = "DevUi", urlPatterns = {"/dev-ui", "/dev-ui/*"})
public class DevUiServlet extends HttpServlet {

    private static final String BUNDLE = "browser";
    private static final String OWN = "/dev-ui";
    private static final Pattern REMOTE_FONT_FACE = Pattern.compile("@font-face\\{[^}]*https://fonts\\.gstatic\\.com[^}]*}");
    private static final Pattern PRECONNECT = Pattern.compile("<link rel=\"preconnect\" href=\"https://fonts\\.[a-z]+\\.com\"[^>]*>\\s*");
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html;charset=UTF-8"), Map.entry("js", "text/javascript;charset=UTF-8"),
            Map.entry("css", "text/css;charset=UTF-8"), Map.entry("json", "application/json"),
            Map.entry("svg", "image/svg+xml"), Map.entry("png", "image/png"), Map.entry("ico", "image/x-icon"),
            Map.entry("woff2", "font/woff2"), Map.entry("txt", "text/plain;charset=UTF-8"));

    @Inject
    Credentials credentials;

    private volatile byte[] index;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (ServletJson.refusedUnlessRead(request, response, "the dev UI")) {
            return;
        }
        String path = request.getPathInfo();
        if (path == null) {
            response.sendRedirect(request.getContextPath() + OWN + "/");
            return;
        }
        if (path.equals("/") || path.equals("/index.html")) {
            if (credentials.required() && signedIn(request, response)) {
                return;
            }
            serve(request, response, "html", index(), false);
            return;
        }
        if (path.contains("..") || path.contains("//")) {
            notFound(request, response);
            return;
        }
        URL found = getServletContext().getResource(OWN + path);
        if (found == null) {
            found = DevUiServlet.class.getClassLoader().getResource(BUNDLE + path);
        }
        if (found == null || path.endsWith("/")) {
            notFound(request, response);
            return;
        }
        byte[] bytes;
        try (InputStream in = found.openStream()) {
            bytes = in.readAllBytes();
        }
        serve(request, response, extension(path), bytes, !path.startsWith("/assets/config/"));
    }

    /**
     * With authentication on, the UI's calls carry no bearer header, only the chat page's {@link SignInCookie}: a person
     * not signed in is sent to the chat page's sign-in (which comes back here), and a signed-in one is given the UI as
     * their own user (its {@code userId} parameter), whose sessions theirs are. True when it answered.
     */
    private boolean signedIn(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<Identity> caller = SignInCookie.caller(credentials, request.getHeader("Authorization"), SignInCookie.in(request));
        if (caller.isEmpty()) {
            response.setHeader("Cache-Control", "no-store");
            response.sendRedirect(request.getContextPath() + "/?then=dev-ui");
            return true;
        }
        String user = caller.get().operator() ? Names.DEFAULT_USER : caller.get().userId();
        String query = request.getQueryString();
        if (request.getParameter("userId") == null) {
            response.setHeader("Cache-Control", "no-store");
            response.sendRedirect(request.getContextPath() + OWN + "/?" + (query == null ? "" : query + "&") + "userId="
                    + URLEncoder.encode(user, StandardCharsets.UTF_8));
            return true;
        }
        return false;
    }

    /** The bundle's index.html with its fonts served from here. */
    private byte[] index() throws IOException {
        byte[] known = index;
        if (known == null) {
            URL bundled = DevUiServlet.class.getClassLoader().getResource(BUNDLE + "/index.html");
            if (bundled == null) {
                throw new IOException("the dev UI bundle (google-adk-dev's browser/) is not on the class path");
            }
            String html;
            try (InputStream in = bundled.openStream()) {
                html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            html = REMOTE_FONT_FACE.matcher(html).replaceAll("");
            html = PRECONNECT.matcher(html).replaceAll("");
            html = html.replace("<base href=\"./\">", "<base href=\"./\">\n  <link rel=\"stylesheet\" href=\"fonts/fonts.css\">");
            known = html.getBytes(StandardCharsets.UTF_8);
            index = known;
        }
        return known;
    }

    private static void serve(HttpServletRequest request, HttpServletResponse response, String extension, byte[] bytes,
                              boolean cacheable) throws IOException {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(TYPES.getOrDefault(extension, "application/octet-stream"));
        // The bundle's file names carry content hashes; index.html and the runtime configuration do not.
        response.setHeader("Cache-Control", cacheable ? "public, max-age=86400" : "no-cache");
        response.setContentLength(bytes.length);
        if (request.getMethod().equals("GET")) {
            response.getOutputStream().write(bytes);
        }
    }

    private static void notFound(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ServletJson.write(response, HttpServletResponse.SC_NOT_FOUND, ApiError.body("not_found", "no such file in the dev UI"),
                request.getMethod().equals("GET"));
    }

    private static String extension(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
