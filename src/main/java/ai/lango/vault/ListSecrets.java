package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** secrets_list: the secrets the caller can use, theirs and the shared ones; names, references and dates. */
final class ListSecrets extends DeclaredTool {

    private final Vault vault;

    ListSecrets(Vault vault) {
        super(ToolFamily.SECRETS, "secrets_list", Safety.SAFE, "List the secrets you can use (yours and the shared ones):"
                + " names, references and dates, never values.", ToolArgs.schema(new LinkedHashMap<>(), List.of()));
        this.vault = vault;
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) {
        List<Map<String, Object>> secrets = vault.list(Vault.lookupOrder(vault.ownerOf(caller)), VaultEntry.Kind.SECRET).stream()
                .map(SecretsToolset::described).toList();
        return Map.of("secrets", secrets, "count", secrets.size());
    }
}
