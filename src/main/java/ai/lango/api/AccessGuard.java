package ai.lango.api;

import ai.lango.config.LangoSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;

/** Who may call: the bearer token (when one is configured) and the origins allowed to open /ws. */
public final class AccessGuard {

    private final LangoSettings.Access access;

    public AccessGuard(LangoSettings.Access access) {
        this.access = access;
    }

    public boolean tokenRequired() {
        return access.token().isPresent();
    }

    /** An "Authorization: Bearer …" header with the configured token; compared in constant time. */
    public boolean authorizationMatches(String header) {
        if (access.token().isEmpty()) {
            return true;
        }
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return tokenMatches(header.substring(7).trim());
    }

    public boolean tokenMatches(String presented) {
        return access.token().map(expected -> presented != null && MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8))).orElse(true);
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

    private static String withPort(String host, int defaultPort) {
        return host.matches(".*:\\d+$") ? host : host + ":" + defaultPort;
    }
}
