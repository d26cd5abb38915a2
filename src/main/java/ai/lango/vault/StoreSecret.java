package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** secrets_store: a secret kept in the vault for the caller, used by reference from then on. */
final class StoreSecret extends DeclaredTool {

    private final Vault vault;

    StoreSecret(Vault vault) {
        super(ToolFamily.SECRETS, "secrets_store", Safety.MODERATE, "Keep a secret (a password, token or key) in the encrypted"
                + " vault under a name; an existing name is replaced. Tools use it as {{secret:NAME}} in their arguments; its"
                + " value is never shown again.", schema());
        this.vault = vault;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", ToolArgs.string("The secret's name: letters, digits, '.', '_' or '-', e.g. \"github-token\"."));
        properties.put("value", ToolArgs.string("The secret itself."));
        return ToolArgs.schema(properties, List.of("name", "value"));
    }

    /** What it writes is kept: a secret's reference stays as text. */
    @Override
    public boolean keepsText() {
        return true;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String name = SecretsToolset.secretName(args);
        String value = ToolArgs.required(args, "value");
        java.util.Optional<String> problem = Vault.valueProblem(value);
        if (problem.isPresent()) {
            throw new ToolException("parameter \"value\": " + problem.get());
        }
        boolean created = vault.store(vault.ownerOf(caller), name, value, null);
        return Map.of("status", created ? "stored" : "replaced", "name", name, "reference", SecretReferences.reference(name));
    }
}
