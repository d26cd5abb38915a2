package ai.lango.net.egress;

import ai.lango.config.HostRule;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the browser, and the server's own fetches on the agent's behalf, may go: http and https only; never to an address of this machine or its
 * private networks (loopback, private, link-local with cloud metadata at 169.254.169.254, unique
 * local, carrier-grade NAT, multicast, unspecified) unless the host is named in
 * lango.tools.browser.allowed-hosts; never to a host named in lango.tools.browser.blocked-hosts.
 * Decided on the addresses the name resolves to, and the connection then goes to one of those very
 * addresses, so a name that resolves differently a moment later changes nothing.
 *
 * <p>A rule is a host name or address ({@code example.com}, {@code 10.0.0.5}, {@code [::1]}), with
 * an optional port ({@code 127.0.0.1:8080}: only that port), or {@code *.example.com} for every name
 * under a domain.
 */
public final class HostPolicy {

    private final List<HostRule> allowed;
    private final List<HostRule> blocked;
    private final Resolver resolver;

    /** Name resolution, replaceable in tests. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A connection the policy lets through, to this address; or the reason it does not. */
    public record Verdict(InetAddress address, String refusal) {

        static Verdict refuse(String reason) {
            return new Verdict(null, reason);
        }

        public boolean allowed() {
            return refusal == null;
        }
    }

    public HostPolicy(List<String> allowedHosts, List<String> blockedHosts) {
        this(allowedHosts, blockedHosts, InetAddress::getAllByName);
    }

    public HostPolicy(List<String> allowedHosts, List<String> blockedHosts, Resolver resolver) {
        this.allowed = allowedHosts.stream().map(HostRule::parse).toList();
        this.blocked = blockedHosts.stream().map(HostRule::parse).toList();
        this.resolver = resolver;
    }

    /** The verdict on a URL the model or a page asks for. */
    public Verdict check(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (Exception e) {
            return Verdict.refuse("\"" + url + "\" is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Verdict.refuse("only http and https URLs are opened, not " + (scheme.isEmpty() ? "\"" + url + "\"" : scheme + ":"));
        }
        if (uri.getHost() == null) {
            return Verdict.refuse("\"" + url + "\" names no host");
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return check(uri.getHost(), port);
    }

    /** The verdict on a connection to {@code host} (a name or an address, IPv6 with or without brackets) and port. */
    public Verdict check(String host, int port) {
        String name = bare(host);
        if (name.isEmpty()) {
            return Verdict.refuse("no host named");
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(name);
        } catch (UnknownHostException e) {
            return Verdict.refuse(name + " does not resolve");
        }
        if (addresses.length == 0) {
            return Verdict.refuse(name + " does not resolve");
        }
        for (HostRule rule : blocked) {
            if (rule.matches(name, port, addresses)) {
                return Verdict.refuse(name + " is blocked by lango.tools.browser.blocked-hosts (" + rule.text() + ")");
            }
        }
        boolean named = allowed.stream().anyMatch(rule -> rule.matches(name, port, addresses));
        if (!named) {
            for (InetAddress address : addresses) {
                Optional<String> kind = internal(address);
                if (kind.isPresent()) {
                    return Verdict.refuse(name + (name.equals(address.getHostAddress()) ? "" : " (" + address.getHostAddress() + ")")
                            + " is " + kind.get() + ", which the browser may not open unless lango.tools.browser.allowed-hosts names it");
                }
            }
        }
        return new Verdict(addresses[0], null);
    }

    /**
     * Where a request to {@code url} goes: its host, with ":port" when the URL names one other than its
     * scheme's default; empty when it is no http(s) URL with a host.
     */
    public static Optional<String> destination(String url) {
        try {
            java.net.URI uri = new java.net.URI(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
                return Optional.empty();
            }
            int port = uri.getPort();
            boolean defaultPort = port < 0 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
            return Optional.of(uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
        } catch (java.net.URISyntaxException e) {
            return Optional.empty();
        }
    }

    /** What kind of internal address this is, or empty for a public one. */
    static Optional<String> internal(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet6Address) {
            Optional<byte[]> embedded = embeddedIpv4(b);
            if (embedded.isPresent()) {
                try {
                    return internal(InetAddress.getByAddress(embedded.get()));
                } catch (UnknownHostException e) {
                    return Optional.of("an unusable address");
                }
            }
        }
        if (address.isLoopbackAddress()) {
            return Optional.of("a loopback address (this machine)");
        }
        if (address.isAnyLocalAddress()) {
            return Optional.of("the unspecified address (this machine)");
        }
        if (address.isLinkLocalAddress()) {
            return Optional.of("a link-local address (where cloud metadata services answer)");
        }
        if (address.isSiteLocalAddress()) {
            return Optional.of("a private address");
        }
        if (address.isMulticastAddress()) {
            return Optional.of("a multicast address");
        }
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 0) {
                return Optional.of("an address of this network (0.0.0.0/8)");
            }
            if (first == 100 && second >= 64 && second <= 127) {
                return Optional.of("a carrier-grade NAT address (100.64.0.0/10)");
            }
            if (first == 198 && (second == 18 || second == 19)) {
                return Optional.of("a benchmarking network address (198.18.0.0/15)");
            }
            if (first == 192 && second == 0 && (b[2] & 0xff) == 0) {
                return Optional.of("an IETF protocol assignment address (192.0.0.0/24)");
            }
            if (first == 192 && second == 0 && (b[2] & 0xff) == 2) {
                return Optional.of("a documentation address (192.0.2.0/24)");
            }
            if (first >= 240) {
                return Optional.of("a reserved address");
            }
        } else if ((b[0] & 0xfe) == 0xfc) {
            return Optional.of("a unique local address (fc00::/7)");
        }
        return Optional.empty();
    }

    /**
     * The IPv4 address an IPv6 address carries, when it is one of the forms that reach it: mapped
     * (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d, SIIT), compatible (::a.b.c.d, deprecated but
     * still routed by some stacks), NAT64 (64:ff9b::a.b.c.d, and 64:ff9b:1::/48), 6to4
     * (2002:aabb:ccdd::). Checked as the IPv4 address it is, so "[::ffff:127.0.0.1]" is as refused as
     * "127.0.0.1".
     */
    static Optional<byte[]> embeddedIpv4(byte[] b) {
        if (b.length != 16) {
            return Optional.empty();
        }
        if (zero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return Optional.of(java.util.Arrays.copyOfRange(b, 12, 16));
        }
        if (zero(b, 0, 8) && (b[8] & 0xff) == 0xff && (b[9] & 0xff) == 0xff && zero(b, 10, 12)) {
            return Optional.of(java.util.Arrays.copyOfRange(b, 12, 16)); // translated
        }
        if (zero(b, 0, 12) && !zero(b, 12, 16) && !(zero(b, 12, 15) && b[15] == 1)) {
            return Optional.of(java.util.Arrays.copyOfRange(b, 12, 16)); // compatible; :: and ::1 are not IPv4
        }
        if ((b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                && (zero(b, 4, 12) || (b[4] == 0 && b[5] == 1))) {
            return Optional.of(java.util.Arrays.copyOfRange(b, 12, 16));
        }
        if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
            return Optional.of(java.util.Arrays.copyOfRange(b, 2, 6));
        }
        return Optional.empty();
    }

    private static boolean zero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static String bare(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
