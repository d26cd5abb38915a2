package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.Map;

/** secrets_delete: one of the caller's own secrets, gone for good. */
final class DeleteSecret extends DeclaredTool {

    private final Vault vault;

    DeleteSecret(Vault vault) {
        super(ToolFamily.SECRETS, "secrets_delete", Safety.DANGEROUS, "Delete one of your secrets from the vault, for good.",
                SecretsToolset.nameOnly("The secret's name."));
        this.vault = vault;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        String name = SecretsToolset.secretName(args);
        if (!vault.delete(new VaultEntry.Id(vault.ownerOf(caller), VaultEntry.Kind.SECRET, name))) {
            throw new ToolException("there is no secret \"" + name + "\" of yours to delete");
        }
        return Map.of("status", "deleted", "name", name);
    }
}
