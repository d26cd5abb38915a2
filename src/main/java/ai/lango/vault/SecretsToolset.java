package ai.lango.vault;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * secrets_store, secrets_get, secrets_list and secrets_delete: the model keeps secrets for its user
 * (shared ones are the administrators') and uses them by reference; no tool ever answers a value.
 */
@ApplicationScoped
public class SecretsToolset implements Toolset {

    @Inject
    LangoSettings.Vault settings;

    @Inject
    Vault vault;


    @Override
    public String name() {
        return "secrets";
    }

    @Override
    public boolean enabled() {
        return settings.secretsTools();
    }

    @Override
    public int order() {
        return 60;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Store(), new Get(), new ListSecrets(), new Delete());
    }

    private static Map<String, Object> nameOnly(String description) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", ToolArgs.string(description));
        return ToolArgs.schema(properties, List.of("name"));
    }

    private static String secretName(Map<String, Object> args) throws ToolException {
        String name = ToolArgs.required(args, "name").strip();
        if (!VaultEntry.validName(name)) {
            throw new ToolException("parameter \"name\" must have 1 to 64 letters, digits, '.', '_' or '-', starting with a"
                    + " letter or digit");
        }
        return name;
    }

    private static Map<String, Object> described(VaultEntry entry) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", entry.name());
        out.put("reference", SecretReferences.reference(entry.name()));
        out.put("shared", entry.shared());
        out.put("createdAt", entry.created().toString());
        out.put("updatedAt", entry.updated().toString());
        return out;
    }

    private abstract static class Base implements Tool {
        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            return call(args, null);
        }

        @Override
        public abstract Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException;
    }

    private final class Store extends Base {
        @Override
        public String name() {
            return "secrets_store";
        }

        @Override
        public Safety safety() {
            return Safety.MODERATE;
        }

        @Override
        public String description() {
            return "Keep a secret (a password, token or key) in the encrypted vault under a name; an existing name is"
                    + " replaced. Tools use it as {{secret:NAME}} in their arguments; its value is never shown again.";
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("name", ToolArgs.string("The secret's name: letters, digits, '.', '_' or '-', e.g. \"github-token\"."));
            properties.put("value", ToolArgs.string("The secret itself."));
            return ToolArgs.schema(properties, List.of("name", "value"));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            String name = secretName(args);
            String value = ToolArgs.required(args, "value");
            if (value.length() > Vault.MAX_VALUE_CHARS) {
                throw new ToolException("parameter \"value\" must be at most " + Vault.MAX_VALUE_CHARS + " characters");
            }
            boolean created = vault.store(vault.ownerOf(caller), name, value);
            return Map.of("status", created ? "stored" : "replaced", "name", name, "reference", SecretReferences.reference(name));
        }
    }

    private final class Get extends Base {
        @Override
        public String name() {
            return "secrets_get";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Look up a secret by name: its reference {{secret:NAME}} to put in a tool's arguments, and when it was"
                    + " stored. Never its value.";
        }

        @Override
        public Map<String, Object> parameters() {
            return nameOnly("The secret's name.");
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            String name = secretName(args);
            return vault.list(Vault.lookupOrder(vault.ownerOf(caller)), VaultEntry.Kind.SECRET).stream()
                    .filter(e -> e.name().equals(name)).findFirst().map(SecretsToolset::described)
                    .orElseThrow(() -> new ToolException("there is no secret \"" + name + "\"; secrets_list shows the secrets there are"));
        }
    }

    private final class ListSecrets extends Base {
        @Override
        public String name() {
            return "secrets_list";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "List the secrets you can use (yours and the shared ones): names, references and dates, never values.";
        }

        @Override
        public Map<String, Object> parameters() {
            return ToolArgs.schema(new LinkedHashMap<>(), List.of());
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) {
            List<Map<String, Object>> secrets = vault.list(Vault.lookupOrder(vault.ownerOf(caller)), VaultEntry.Kind.SECRET).stream()
                    .map(SecretsToolset::described).toList();
            return Map.of("secrets", secrets, "count", secrets.size());
        }
    }

    private final class Delete extends Base {
        @Override
        public String name() {
            return "secrets_delete";
        }

        @Override
        public Safety safety() {
            return Safety.DANGEROUS;
        }

        @Override
        public String description() {
            return "Delete one of your secrets from the vault, for good.";
        }

        @Override
        public Map<String, Object> parameters() {
            return nameOnly("The secret's name.");
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
            String name = secretName(args);
            if (!vault.delete(new VaultEntry.Id(vault.ownerOf(caller), VaultEntry.Kind.SECRET, name))) {
                throw new ToolException("there is no secret \"" + name + "\" of yours to delete");
            }
            return Map.of("status", "deleted", "name", name);
        }
    }
}
