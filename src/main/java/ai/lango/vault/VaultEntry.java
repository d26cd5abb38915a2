package ai.lango.vault;

import ai.lango.security.Ownership;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What may be shown of a secret or key: its name, whose it is, its dates (and a key's algorithm and
 * public key, a secret's binding); never the value.
 */
public record VaultEntry(Id id, String algorithm, String publicKey, Instant created, Instant updated, Binding binding) {

    /**
     * Where a secret's value may go: the hosts a tool that reaches the network may send it to (a name or
     * address, with an optional :port, or *.domain; "*" any), the tools that may use it, and, of a shared
     * secret, the users who may besides administrators.
     */
    public record Binding(List<String> hosts, List<String> tools, List<String> users) {

        /** The tools a secret goes to when its binding names none: commands, and typing into a page. */
        public static final List<String> DEFAULT_TOOLS = List.of("exec", "browser_type");

        /** No host, the default tools, administrators alone. */
        public static final Binding DEFAULT = new Binding(List.of(), DEFAULT_TOOLS, List.of());

        public Binding {
            hosts = List.copyOf(hosts);
            tools = List.copyOf(tools);
            users = List.copyOf(users);
        }
    }

    /** A name as {@code {{secret:NAME}}} and {@code [SECRET:NAME]} carry it. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** A secret, a crypto tools' key, or a payment wallet's key (which no crypto tool lists, uses or deletes). */
    public enum Kind { SECRET, KEY, WALLET }

    /** Which entry: whose, what kind, which name. */
    public record Id(String owner, Kind kind, String name) {

        /** What the entry's ciphertext is bound to: another row's ciphertext put in its place does not open. */
        String associatedData() {
            return kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + owner + ":" + name;
        }
    }

    public String name() {
        return id.name();
    }

    public boolean shared() {
        return Ownership.SHARED.equals(id.owner());
    }

    /** Whether {@code name} is a valid name for a secret or key. */
    public static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }
}
