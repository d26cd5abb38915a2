package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.Map;

/** secrets_get: a secret's reference and dates, never its value. */
final class GetSecret extends DeclaredTool {

    private final Vault vault;

    GetSecret(Vault vault) {
        super(ToolFamily.SECRETS, "secrets_get", Safety.SAFE, "Look up a secret by name: its reference {{secret:NAME}} to put"
                + " in a tool's arguments, and when it was stored. Never its value.", SecretsToolset.nameOnly("The secret's name."));
        this.vault = vault;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String name = SecretsToolset.secretName(args);
        return vault.list(Vault.lookupOrder(vault.ownerOf(caller)), VaultEntry.Kind.SECRET).stream()
                .filter(e -> e.name().equals(name)).findFirst().map(SecretsToolset::described)
                .orElseThrow(() -> new ToolException("there is no secret \"" + name + "\"; secrets_list shows the secrets there are"));
    }
}
