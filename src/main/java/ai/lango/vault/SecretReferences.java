package ai.lango.vault;

import ai.lango.config.HostRule;
import ai.lango.tool.Caller;
import ai.lango.tool.References;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code {{secret:NAME}}} anywhere in a call's arguments (nested maps and lists included) becomes the
 * value of the caller's secret NAME, or else the shared one, just before the tool runs — only where
 * the secret may go (its {@link VaultEntry.Binding}): in the turns of its owner (a shared one's:
 * administrators' and the users it names), in a tool it names, for a tool that reaches the network
 * only toward a host it names, and never inside a URL. A tool that keeps text (a file, knowledge, a
 * learning, a skill) gets the reference as text. Anything else is a tool error naming the secret and
 * the rule, and the value is never opened. The model never needs a value to use a secret.
 */
@ApplicationScoped
public class SecretReferences implements References {

    static final Pattern REFERENCE = Pattern.compile("\\{\\{secret:([^{}\\s]{1,64})}}");
    /**
     * A reference inside a URL: a scheme's "://", then the reference with no space, quote or bracket between —
     * but for quotes (and backslashes) right before the reference, which a shell joins to the URL
     * ({@code "https://host/?k="{{secret:X}}} is one word to it).
     */
    static final Pattern IN_URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>]*[\"'\\\\]*\\{\\{secret:([^{}\\s]{1,64})}}");

    @Inject
    Vault vault;

    /** How the model writes a reference to the secret {@code name}. */
    public static String reference(String name) {
        return "{{secret:" + name + "}}";
    }

    @Override
    public Use inspect(Tool tool, Map<String, Object> args, Caller caller) throws ToolException {
        if (tool.keepsText() || !mentions(args)) {
            return Use.NONE;
        }
        Set<String> names = new LinkedHashSet<>();
        collect(args, names);
        Optional<String> destination = tool.destination(args, caller);
        List<String> owners = Vault.lookupOrder(vault.ownerOf(caller));
        for (String name : names) {
            VaultEntry secret = vault.secret(owners, name).orElseThrow(() -> new ToolException("there is no secret \"" + name
                    + "\" (in " + reference(name) + "); secrets_list shows the secrets there are"));
            check(secret, tool.name(), caller, destination);
        }
        return new Use(List.copyOf(names), destination);
    }

    /**
     * The values {@code values} stand for, for what {@code usedBy} names (an MCP server's
     * {@code mcp_<name>}: its environment or headers) on behalf of {@code caller}, toward {@code
     * destination} (a host, when they go over the network): each reference checked against its secret's
     * binding as a tool call's would be, and never inside a URL.
     */
    public Map<String, String> resolveFor(String usedBy, Map<String, String> values, Optional<String> destination, Caller caller)
            throws ToolException {
        if (!mentions(values)) {
            return values;
        }
        Set<String> names = new LinkedHashSet<>();
        collect(values, names);
        List<String> owners = Vault.lookupOrder(vault.ownerOf(caller));
        for (String name : names) {
            VaultEntry secret = vault.secret(owners, name).orElseThrow(() -> new ToolException("there is no secret \"" + name
                    + "\" (in " + reference(name) + ")"));
            check(secret, usedBy, caller, destination);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> resolved = (Map<String, Object>) replace(values, owners, new LinkedHashMap<>());
        Map<String, String> texts = new LinkedHashMap<>();
        resolved.forEach((key, value) -> texts.put(key, String.valueOf(value)));
        return texts;
    }

    @Override
    public Map<String, Object> resolve(Tool tool, Map<String, Object> args, Caller caller) throws ToolException {
        if (tool.keepsText() || !mentions(args)) {
            return args;
        }
        inspect(tool, args, caller);
        @SuppressWarnings("unchecked")
        Map<String, Object> resolved = (Map<String, Object>) replace(args, Vault.lookupOrder(vault.ownerOf(caller)),
                new LinkedHashMap<>());
        return resolved;
    }

    /** Where {@code secret} may go, against this call: every rule it breaks is a tool error naming it. */
    private static void check(VaultEntry secret, String tool, Caller caller, Optional<String> destination) throws ToolException {
        String name = secret.name();
        VaultEntry.Binding binding = secret.binding();
        if (secret.shared() && caller != null && !caller.admin() && !binding.users().contains(caller.userId())) {
            throw new ToolException("the secret \"" + name + "\" is shared: it is used in the turns of administrators"
                    + (binding.users().isEmpty() ? "" : " and of " + String.join(", ", binding.users())) + " only, not of \""
                    + caller.userId() + "\" (its binding's users)");
        }
        if (!binding.tools().contains(tool)) {
            throw new ToolException("the secret \"" + name + "\" may go to " + String.join(", ", binding.tools())
                    + " only, not to " + tool + " (its binding's tools)");
        }
        if (destination.isPresent() && !allows(binding.hosts(), destination.get())) {
            throw new ToolException("the secret \"" + name + "\" may be sent to " + (binding.hosts().isEmpty() ? "no host"
                    : String.join(", ", binding.hosts())) + ", not to " + ("*".equals(destination.get()) ? "any host"
                    : destination.get()) + " (its binding's hosts)");
        }
    }

    /** Whether the hosts of a binding let a value go to {@code destination} ("host", "host:port", or "*": any). */
    static boolean allows(List<String> hosts, String destination) {
        if (hosts.contains("*")) {
            return true;
        }
        if ("*".equals(destination)) {
            return false;
        }
        HostRule target = HostRule.parse(destination);
        for (String host : hosts) {
            HostRule rule = HostRule.parse(host);
            boolean named = rule.subdomains() ? target.host().endsWith("." + rule.host()) : target.host().equals(rule.host());
            // A destination names its port only when it is not its scheme's default (80, 443).
            boolean port = rule.port() < 0 || rule.port() == target.port()
                    || target.port() < 0 && (rule.port() == 80 || rule.port() == 443);
            if (named && port) {
                return true;
            }
        }
        return false;
    }

    /** Whether any text in {@code value} holds a reference: most calls hold none and are passed on untouched. */
    private static boolean mentions(Object value) {
        if (value instanceof String text) {
            return text.contains("{{secret:");
        }
        if (value instanceof Map<?, ?> map) {
            return map.values().stream().anyMatch(SecretReferences::mentions);
        }
        if (value instanceof Collection<?> list) {
            return list.stream().anyMatch(SecretReferences::mentions);
        }
        return false;
    }

    /** Every secret {@code value} refers to; a reference inside a URL is refused at once. */
    private static void collect(Object value, Set<String> names) throws ToolException {
        if (value instanceof String text) {
            Matcher inUrl = IN_URL.matcher(text);
            if (inUrl.find()) {
                throw new ToolException("the secret \"" + inUrl.group(1) + "\" never goes into a URL (its path and query end"
                        + " up in logs and in the other side's records): a secret goes only where its binding names,"
                        + " as a tool's own argument");
            }
            Matcher matcher = REFERENCE.matcher(text);
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (entry.getValue() instanceof String text && REFERENCE.matcher(text).find()
                        && String.valueOf(entry.getKey()).toLowerCase(Locale.ROOT).matches("url|uri|href|link|source")) {
                    Matcher matcher = REFERENCE.matcher(text);
                    matcher.find();
                    throw new ToolException("the secret \"" + matcher.group(1) + "\" never goes into a URL (parameter \""
                            + entry.getKey() + "\"): a secret goes only where its binding names, as a tool's own argument");
                }
                collect(entry.getValue(), names);
            }
        } else if (value instanceof Collection<?> list) {
            for (Object item : list) {
                collect(item, names);
            }
        }
    }

    private Object replace(Object value, List<String> owners, Map<String, String> opened) throws ToolException {
        if (value instanceof String text) {
            Matcher matcher = REFERENCE.matcher(text);
            StringBuilder out = new StringBuilder();
            while (matcher.find()) {
                String name = matcher.group(1);
                String secret = opened.get(name);
                if (secret == null) {
                    secret = vault.find(owners, VaultEntry.Kind.SECRET, name)
                            .map(found -> new String(found.value(), StandardCharsets.UTF_8))
                            .orElseThrow(() -> new ToolException("there is no secret \"" + name + "\" (in " + reference(name)
                                    + "); secrets_list shows the secrets there are"));
                    opened.put(name, secret);
                }
                matcher.appendReplacement(out, Matcher.quoteReplacement(secret));
            }
            matcher.appendTail(out);
            return out.toString();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(String.valueOf(entry.getKey()), replace(entry.getValue(), owners, opened));
            }
            return copy;
        }
        if (value instanceof Collection<?> list) {
            List<Object> copy = new ArrayList<>();
            for (Object item : list) {
                copy.add(replace(item, owners, opened));
            }
            return copy;
        }
        return value;
    }
}
