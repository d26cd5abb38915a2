package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** crypto_keys: keys kept in the vault, created, listed (public halves only) or deleted; its safety depends on the action. */
final class ManageKeys extends CryptoTool {

    ManageKeys(Vault vault) {
        super("crypto_keys", Safety.DANGEROUS, "Manage keys kept in the vault: create one (type aes-256-gcm to encrypt, ed25519"
                + " or ecdsa-p256 to sign), list them (with their public keys), or delete one for good.",
                schema(List.of("action"), "action", ToolArgs.oneOf(List.of("create", "list", "delete"), "What to do."),
                        "name", "The key's name (create, delete).",
                        "type", ToolArgs.oneOf(CryptoKeys.TYPES, "The kind of key to create.")), vault);
    }

    @Override
    public Safety safety(Map<String, Object> args) {
        return switch (String.valueOf(args.get("action"))) {
            case "list" -> Safety.SAFE;
            case "create" -> Safety.MODERATE;
            default -> Safety.DANGEROUS;
        };
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        String action = ToolArgs.required(args, "action");
        String owner = vault.ownerOf(caller);
        switch (action) {
            case "list" -> {
                List<Map<String, Object>> keys = vault.list(Vault.lookupOrder(owner), VaultEntry.Kind.KEY).stream().map(k -> {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("name", k.name());
                    item.put("type", k.algorithm());
                    if (k.publicKey() != null) {
                        item.put("publicKey", k.publicKey());
                    }
                    item.put("shared", k.shared());
                    item.put("createdAt", k.created().toString());
                    return item;
                }).toList();
                return Map.of("keys", keys, "count", keys.size());
            }
            case "create" -> {
                String name = ToolArgs.required(args, "name").strip();
                String type = ToolArgs.required(args, "type");
                if (vault.find(List.of(owner), VaultEntry.Kind.KEY, name).isPresent()) {
                    throw new ToolException("a key \"" + name + "\" exists already; delete it first or choose another name");
                }
                CryptoKeys.Material material = CryptoKeys.generate(type);
                vault.putKey(owner, name, type, material.secret(), material.publicKey());
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("status", "created");
                out.put("name", name);
                out.put("type", type);
                if (material.publicKey() != null) {
                    out.put("publicKey", material.publicKey());
                }
                return out;
            }
            case "delete" -> {
                String name = ToolArgs.required(args, "name").strip();
                if (!vault.delete(new VaultEntry.Id(owner, VaultEntry.Kind.KEY, name))) {
                    throw new ToolException("there is no key \"" + name + "\" of yours to delete");
                }
                return Map.of("status", "deleted", "name", name);
            }
            default -> throw new ToolException("parameter \"action\" must be create, list or delete");
        }
    }
}
