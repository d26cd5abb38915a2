package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.References;
import ai.lango.tool.ToolException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code {{secret:NAME}}} anywhere in a call's arguments (nested maps and lists included) becomes the
 * value of the caller's secret NAME, or else the shared one, just before the tool runs; a name that
 * is neither is a tool error. The model never needs a value to use a secret.
 */
@ApplicationScoped
public class SecretReferences implements References {

    static final Pattern REFERENCE = Pattern.compile("\\{\\{secret:([^{}\\s]{1,64})}}");

    @Inject
    Vault vault;


    /** How the model writes a reference to the secret {@code name}. */
    public static String reference(String name) {
        return "{{secret:" + name + "}}";
    }

    @Override
    public Map<String, Object> resolve(Map<String, Object> args, Caller caller) throws ToolException {
        if (!mentions(args)) {
            return args;
        }
        String owner = vault.ownerOf(caller);
        @SuppressWarnings("unchecked")
        Map<String, Object> resolved = (Map<String, Object>) replace(args, Vault.lookupOrder(owner), new LinkedHashMap<>());
        return resolved;
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
