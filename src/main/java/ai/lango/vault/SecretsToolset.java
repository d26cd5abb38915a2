package ai.lango.vault;

import ai.lango.config.LangoSettings;
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
        return List.of(new StoreSecret(vault), new GetSecret(vault), new ListSecrets(vault), new DeleteSecret(vault));
    }

    static Map<String, Object> nameOnly(String description) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", ToolArgs.string(description));
        return ToolArgs.schema(properties, List.of("name"));
    }

    static String secretName(Map<String, Object> args) throws ToolException {
        String name = ToolArgs.required(args, "name").strip();
        if (!VaultEntry.validName(name)) {
            throw new ToolException("parameter \"name\" must have 1 to 64 letters, digits, '.', '_' or '-', starting with a"
                    + " letter or digit");
        }
        return name;
    }

    static Map<String, Object> described(VaultEntry entry) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", entry.name());
        out.put("reference", SecretReferences.reference(entry.name()));
        out.put("shared", entry.shared());
        out.put("createdAt", entry.created().toString());
        out.put("updatedAt", entry.updated().toString());
        return out;
    }
}
