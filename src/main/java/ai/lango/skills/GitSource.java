package ai.lango.skills;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * A git URL import_skill clones, split so that its host passes the browser's guard before git
 * connects, and git then connects to the very address that was checked (a name that resolves
 * elsewhere the second time reaches nothing new). https keeps its name, for TLS, and goes through
 * the guard's proxy instead; ssh keeps checking the host key under the name ({@link #hostKeyAlias}).
 *
 * @param kind how git reaches it
 * @param user the user part of an ssh URL, or null
 * @param host the host as written (brackets of an IPv6 address removed)
 * @param port the port git connects to
 * @param rest what follows the host and port: "/path" for URLs, "path" for the scp-like form
 */
record GitSource(Kind kind, String user, String host, int port, String rest) {

    enum Kind { HTTPS, SSH, GIT, SCP }

    /** [user@]host:path, where no slash comes before the colon (git's own rule); "transport::" is a remote helper. */
    private static final java.util.regex.Pattern SCP_LIKE = java.util.regex.Pattern
            .compile("(?:([A-Za-z0-9._-]+)@)?(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.-]+):([^/:].*|/.+)");

    /** The source, or empty when it is no https, ssh, git or scp-like ({@code user@host:path}) URL. */
    static Optional<GitSource> parse(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("https://") || lower.startsWith("ssh://") || lower.startsWith("git://")) {
            try {
                URI uri = new URI(url);
                if (uri.getHost() == null || uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
                    return Optional.empty();
                }
                Kind kind = lower.startsWith("https") ? Kind.HTTPS : lower.startsWith("ssh") ? Kind.SSH : Kind.GIT;
                int port = uri.getPort() >= 0 ? uri.getPort() : switch (kind) {
                    case HTTPS -> 443;
                    case SSH, SCP -> 22;
                    case GIT -> 9418;
                };
                String rest = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
                return Optional.of(new GitSource(kind, uri.getRawUserInfo(), unbracketed(uri.getHost()), port, rest));
            } catch (URISyntaxException e) {
                return Optional.empty();
            }
        }
        java.util.regex.Matcher scp = SCP_LIKE.matcher(url);
        if (!url.contains("://") && scp.matches()) {
            return Optional.of(new GitSource(Kind.SCP, scp.group(1), unbracketed(scp.group(2)), 22, scp.group(3)));
        }
        return Optional.empty();
    }

    /** The URL git is given: for ssh and git toward {@code address} itself, for https as written (its proxy checks). */
    String towards(InetAddress address) {
        String literal = address instanceof Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        String userPart = user == null ? "" : user + "@";
        return switch (kind) {
            case HTTPS -> "https://" + userPart + bracketed(host) + ":" + port + rest;
            case SSH -> "ssh://" + userPart + literal + ":" + port + rest;
            case GIT -> "git://" + literal + ":" + port + rest;
            case SCP -> userPart + literal + ":" + rest;
        };
    }

    /** The name ssh checks the host key under, although it connects to an address. */
    String hostKeyAlias() {
        return host;
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static String bracketed(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
