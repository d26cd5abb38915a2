package ai.lango.api.access;

import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import java.net.URI;
import java.util.Locale;

/**
 * Where calls may come from: the origins allowed to open /ws, and the Host names the server answers
 * to. (Who calls is {@link ai.lango.security.Credentials}' business.)
 */
public final class AccessGuard {

    private final LangoSettings.Access access;
    private final String boundHost;

    public AccessGuard(LangoSettings.Access access) {
        this(access, Keys.HTTP_HOST.defaultValue());
    }

    /** @param boundHost lango.http.host, the interface the server listens on */
    public AccessGuard(LangoSettings.Access access, String boundHost) {
        this.access = access;
        this.boundHost = boundHost == null ? "" : boundHost.toLowerCase(Locale.ROOT);
    }

    /**
     * A Host header names this server: a loopback name (localhost, 127.x.x.x, [::1]), the interface
     * it is bound to (unless that is a wildcard such as 0.0.0.0), or a name in
     * lango.http.allowed-hosts ("*": any). No Host header at all is not a browser's request, so no
     * rebinding attack, and passes.
     */
    public boolean hostAllowed(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank() || access.allowedHosts().contains("*")) {
            return true;
        }
        String host = withoutPort(hostHeader.trim().toLowerCase(Locale.ROOT));
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        return host.equals("localhost") || host.matches("127(\\.\\d{1,3}){3}") || host.equals("[::1]")
                || (!isWildcard(boundHost) && (host.equals(boundHost) || host.equals("[" + boundHost + "]")))
                || access.allowedHosts().contains(host);
    }

    private static boolean isWildcard(String host) {
        return host.isEmpty() || host.equals("*") || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
    }

    /** "name:port" and "[v6]:port" without the port. */
    private static String withoutPort(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    /**
     * A WebSocket upgrade's Origin is allowed when absent (not a browser), the server's own
     * (same host and port as the Host header), or listed in lango.http.allowed-origins ("*": any).
     */
    public boolean originAllowed(String origin, String host) {
        if (origin == null || origin.isBlank()) {
            return true;
        }
        String normalized = origin.trim().replaceAll("/+$", "").toLowerCase(Locale.ROOT);
        if (access.allowedOrigins().contains("*")
                || access.allowedOrigins().stream().anyMatch(o -> o.toLowerCase(Locale.ROOT).equals(normalized))) {
            return true;
        }
        try {
            URI uri = URI.create(normalized);
            if (uri.getHost() == null || host == null) {
                return false;
            }
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
            return (uri.getHost() + ":" + port).equals(withPort(host.toLowerCase(Locale.ROOT), port));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Whether a browser's request comes from a page allowed to drive this server: its Origin is allowed
     * ({@link #originAllowed}: the server's own, or listed), or, with no Origin, its Sec-Fetch-Site
     * says the same origin ({@code same-origin}) or none ({@code none}: typed, a bookmark). A request with
     * neither header is not a browser's and passes. {@code same-site} is another origin too (another port
     * of localhost is the same site).
     */
    public boolean siteAllowed(String origin, String fetchSite, String host) {
        if (origin != null && !origin.isBlank()) {
            return originAllowed(origin, host);
        }
        return fetchSite == null || fetchSite.isBlank() || fetchSite.equalsIgnoreCase("same-origin")
                || fetchSite.equalsIgnoreCase("none");
    }

    private static String withPort(String host, int defaultPort) {
        return host.matches(".*:\\d+$") ? host : host + ":" + defaultPort;
    }
}
