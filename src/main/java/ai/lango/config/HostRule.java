package ai.lango.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One entry of lango.tools.browser.allowed-hosts or blocked-hosts: a host name or address
 * ({@code example.com}, {@code 10.0.0.5}, {@code [::1]}) with an optional port ({@code
 * 127.0.0.1:8080}: only that port), or {@code *.example.com} for every name under a domain. An
 * address entry also matches a name that resolves to it.
 */
public record HostRule(String text, String host, boolean subdomains, int port) {

    public static HostRule parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        String host = t;
        int port = -1;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("\"" + text + "\": an IPv6 address in brackets lacks its ]");
            }
            host = t.substring(1, close);
            String rest = t.substring(close + 1);
            if (!rest.isEmpty()) {
                port = port(text, rest.startsWith(":") ? rest.substring(1) : rest);
            }
        } else if (t.indexOf(':') >= 0 && t.indexOf(':') == t.lastIndexOf(':')) {
            host = t.substring(0, t.indexOf(':'));
            port = port(text, t.substring(t.indexOf(':') + 1));
        }
        boolean subdomains = host.startsWith("*.");
        if (subdomains) {
            host = host.substring(2);
        }
        if (host.isEmpty() || !host.matches("[a-z0-9._:-]+") || host.contains("*")) {
            throw new IllegalArgumentException("\"" + text + "\" is not a host name, an address or *.domain, with an"
                    + " optional :port");
        }
        return new HostRule(text.strip(), host, subdomains, port);
    }

    private static int port(String text, String digits) {
        try {
            int port = Integer.parseInt(digits);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("\"" + text + "\": the port must be a number from 1 to 65535");
    }

    public boolean matches(String name, int port, InetAddress[] addresses) {
        if (this.port >= 0 && this.port != port) {
            return false;
        }
        if (subdomains) {
            return name.endsWith("." + host);
        }
        if (name.equals(host)) {
            return true;
        }
        List<String> literal = new ArrayList<>();
        for (InetAddress address : addresses) {
            literal.add(address.getHostAddress().toLowerCase(Locale.ROOT));
        }
        return literal.contains(host) || literal.contains(canonical(host));
    }

    private static String canonical(String host) {
        try {
            return host.matches("[0-9a-f:.]+") && host.contains(":") ? InetAddress.getByName(host).getHostAddress() : host;
        } catch (UnknownHostException e) {
            return host;
        }
    }

    /** Why {@code text} is not an entry, or empty when it is one. */
    public static Optional<String> problem(String text) {
        try {
            parse(text);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}
