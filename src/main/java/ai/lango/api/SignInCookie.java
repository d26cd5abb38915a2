package ai.lango.api;

import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The sign-in cookie: the chat page's credential, set for the browser so that pages that cannot send a bearer header
 * (ADK's dev UI) work for a signed-in person. HttpOnly (no script reads it), SameSite=Strict (no other site's page or
 * link sends it) and, on top, every request that changes state is refused from another site's page
 * ({@code api.access.CrossSiteFilter}). A bearer header, when there is one, always wins over it. It lasts {@link #LIFETIME} or
 * until the page signs out.
 */
public final class SignInCookie {

    /** The cookie's name. */
    public static final String NAME = "lango_signin";
    /** How long a browser keeps it: a working day, so a browser left open does not stay signed in for good. */
    public static final Duration LIFETIME = Duration.ofHours(8);

    private SignInCookie() {
    }

    /** The header that sets {@code credential} as the cookie for the application at {@code path}. */
    public static String set(String credential, String path, boolean secure) {
        return NAME + "=" + credential + "; Path=" + path + "; Max-Age=" + LIFETIME.toSeconds() + "; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : "");
    }

    /** The header that removes it. */
    public static String cleared(String path, boolean secure) {
        return NAME + "=; Path=" + path + "; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    /** Whether {@code credential} can be a cookie's value as it is (tokens and JWTs are; anything else is refused). */
    public static boolean fits(String credential) {
        return !credential.isEmpty() && credential.length() <= 4096 && credential.chars().allMatch(c -> c > 0x20 && c < 0x7f
                && c != ';' && c != ',' && c != '"' && c != '\\');
    }

    /** The cookie's credential among JAX-RS's cookies. */
    public static Optional<String> in(Map<String, jakarta.ws.rs.core.Cookie> cookies) {
        return Optional.ofNullable(cookies.get(NAME)).map(jakarta.ws.rs.core.Cookie::getValue).filter(v -> !v.isEmpty());
    }

    /** The cookie's credential in a servlet's request. */
    public static Optional<String> in(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie cookie : cookies) {
            if (NAME.equals(cookie.getName()) && !cookie.getValue().isEmpty()) {
                return Optional.of(cookie.getValue());
            }
        }
        return Optional.empty();
    }

    /**
     * Who calls: from the bearer header when there is one, else from the cookie; with no credential required, the
     * operator.
     */
    public static Optional<Identity> caller(Credentials credentials, String authorization, Optional<String> cookie) {
        if (authorization == null && credentials.required() && cookie.isPresent()) {
            return credentials.identify(cookie.get());
        }
        return credentials.fromAuthorization(authorization);
    }
}
