package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the crypto_ tools share: a bad key, input or signature is a tool error naming the tool, and a
 * key is looked up as the caller's own or the shared one.
 */
abstract class CryptoTool extends DeclaredTool {

    protected final Vault vault;

    CryptoTool(String name, Safety safety, String description, Map<String, Object> parameters, Vault vault) {
        super(ToolFamily.CRYPTO, name, safety, description, parameters);
        this.vault = vault;
    }

    @Override
    public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
        try {
            return run(args, caller);
        } catch (IllegalArgumentException | GeneralSecurityException | VaultCrypto.TamperedException e) {
            throw new ToolException(name() + ": " + e.getMessage());
        }
    }

    abstract Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception;

    /** The caller's key named by the "key" argument (or the shared one), opened. */
    Vault.Opened key(Caller caller, Map<String, Object> args) throws ToolException {
        String name = ToolArgs.required(args, "key").strip();
        return vault.find(Vault.lookupOrder(vault.ownerOf(caller)), VaultEntry.Kind.KEY, name)
                .orElseThrow(() -> new ToolException("there is no key \"" + name + "\"; crypto_keys with action \"list\" shows"
                        + " the keys there are"));
    }

    /** The caller's AES key named by the "key" argument; another kind of key is a tool error. */
    Vault.Opened aesKey(Caller caller, Map<String, Object> args) throws ToolException {
        Vault.Opened key = key(caller, args);
        if (!CryptoKeys.AES.equals(key.entry().algorithm())) {
            throw new ToolException("the key \"" + key.entry().name() + "\" is an " + key.entry().algorithm()
                    + " key; encrypting and decrypting need an " + CryptoKeys.AES + " key");
        }
        return key;
    }

    /** A schema of properties given as name, description (or a property's schema), name, …. */
    static Map<String, Object> schema(List<String> required, Object... nameAndDescription) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (int i = 0; i < nameAndDescription.length; i += 2) {
            Object spec = nameAndDescription[i + 1];
            properties.put((String) nameAndDescription[i], spec instanceof String text ? ToolArgs.string(text) : spec);
        }
        return ToolArgs.schema(properties, required);
    }
}
