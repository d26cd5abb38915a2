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
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * crypto_keys, crypto_encrypt, crypto_decrypt, crypto_sign, crypto_verify and crypto_hash
 * (lango.tools.crypto.enabled). Keys are made and kept in the vault, per user like secrets; their
 * secret halves never leave it (crypto_keys lists public keys only). Data and plaintexts are UTF-8
 * text; ciphertexts and signatures base64.
 */
@ApplicationScoped
public class CryptoToolset implements Toolset {

    @Inject
    LangoSettings.Vault settings;

    @Inject
    Vault vault;


    @Override
    public String name() {
        return "crypto";
    }

    @Override
    public boolean enabled() {
        return settings.cryptoTools();
    }

    @Override
    public int order() {
        return 61;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Keys(), new Encrypt(), new Decrypt(), new Sign(), new Verify(), new Hash());
    }

    /** The caller's key {@code name} (or the shared one), opened. */
    private Vault.Opened key(Caller caller, Map<String, Object> args) throws ToolException {
        String name = ToolArgs.required(args, "key").strip();
        return vault.find(Vault.lookupOrder(vault.ownerOf(caller)), VaultEntry.Kind.KEY, name)
                .orElseThrow(() -> new ToolException("there is no key \"" + name + "\"; crypto_keys with action \"list\" shows the keys there are"));
    }

    private static Map<String, Object> schema(List<String> required, Object... nameAndDescription) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (int i = 0; i < nameAndDescription.length; i += 2) {
            Object spec = nameAndDescription[i + 1];
            properties.put((String) nameAndDescription[i], spec instanceof String text ? ToolArgs.string(text) : spec);
        }
        return ToolArgs.schema(properties, required);
    }

    private abstract static class Base implements Tool {
        @Override
        public Map<String, Object> call(Map<String, Object> args) throws Exception {
            return call(args, null);
        }

        @Override
        public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
            try {
                return run(args, caller);
            } catch (IllegalArgumentException | GeneralSecurityException e) {
                throw new ToolException(name() + ": " + e.getMessage());
            } catch (VaultCrypto.TamperedException e) {
                throw new ToolException(name() + ": " + e.getMessage());
            }
        }

        abstract Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception;
    }

    private final class Keys extends Base {
        @Override
        public String name() {
            return "crypto_keys";
        }

        @Override
        public Safety safety() {
            return Safety.DANGEROUS;
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
        public String description() {
            return "Manage keys kept in the vault: create one (type aes-256-gcm to encrypt, ed25519 or ecdsa-p256 to sign),"
                    + " list them (with their public keys), or delete one for good.";
        }

        @Override
        public Map<String, Object> parameters() {
            return schema(List.of("action"), "action", ToolArgs.oneOf(List.of("create", "list", "delete"), "What to do."),
                    "name", "The key's name (create, delete).",
                    "type", ToolArgs.oneOf(CryptoKeys.TYPES, "The kind of key to create."));
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

    private final class Encrypt extends Base {
        @Override
        public String name() {
            return "crypto_encrypt";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Encrypt text with an aes-256-gcm key of the vault; the ciphertext is base64.";
        }

        @Override
        public Map<String, Object> parameters() {
            return schema(List.of("key", "plaintext"), "key", "The key's name.", "plaintext", "The text to encrypt.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            Vault.Opened key = aes(key(caller, args));
            return Map.of("ciphertext", CryptoKeys.encrypt(key.value(), ToolArgs.required(args, "plaintext")));
        }
    }

    private static Vault.Opened aes(Vault.Opened key) throws ToolException {
        if (!CryptoKeys.AES.equals(key.entry().algorithm())) {
            throw new ToolException("the key \"" + key.entry().name() + "\" is an " + key.entry().algorithm()
                    + " key; encrypting and decrypting need an " + CryptoKeys.AES + " key");
        }
        return key;
    }

    private final class Decrypt extends Base {
        @Override
        public String name() {
            return "crypto_decrypt";
        }

        @Override
        public Safety safety() {
            return Safety.MODERATE;
        }

        @Override
        public String description() {
            return "Decrypt a base64 ciphertext that crypto_encrypt made with an aes-256-gcm key of the vault.";
        }

        @Override
        public Map<String, Object> parameters() {
            return schema(List.of("key", "ciphertext"), "key", "The key's name.", "ciphertext", "The base64 ciphertext.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            Vault.Opened key = aes(key(caller, args));
            return Map.of("plaintext", CryptoKeys.decrypt(key.value(), ToolArgs.required(args, "ciphertext")));
        }
    }

    private final class Sign extends Base {
        @Override
        public String name() {
            return "crypto_sign";
        }

        @Override
        public Safety safety() {
            return Safety.DANGEROUS;
        }

        @Override
        public String description() {
            return "Sign text with an ed25519 or ecdsa-p256 key of the vault; the signature is base64.";
        }

        @Override
        public Map<String, Object> parameters() {
            return schema(List.of("key", "data"), "key", "The key's name.", "data", "The text to sign.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            Vault.Opened key = key(caller, args);
            byte[] signature = CryptoKeys.sign(key.entry().algorithm(), key.value(),
                    ToolArgs.required(args, "data").getBytes(StandardCharsets.UTF_8));
            return Map.of("signature", VaultCrypto.base64(signature));
        }
    }

    private final class Verify extends Base {
        @Override
        public String name() {
            return "crypto_verify";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Check a base64 signature of text against an ed25519 or ecdsa-p256 key of the vault.";
        }

        @Override
        public Map<String, Object> parameters() {
            return schema(List.of("key", "data", "signature"), "key", "The key's name.", "data", "The text that was signed.",
                    "signature", "The base64 signature.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            Vault.Opened key = key(caller, args);
            byte[] signature;
            try {
                signature = VaultCrypto.unbase64(ToolArgs.required(args, "signature"));
            } catch (IllegalArgumentException notBase64) {
                return Map.of("valid", false);
            }
            return Map.of("valid", CryptoKeys.verify(key.entry().algorithm(), key.entry().publicKey(),
                    ToolArgs.required(args, "data").getBytes(StandardCharsets.UTF_8), signature));
        }
    }

    private final class Hash extends Base {
        @Override
        public String name() {
            return "crypto_hash";
        }

        @Override
        public Safety safety() {
            return Safety.SAFE;
        }

        @Override
        public String description() {
            return "Hash text (UTF-8) with sha256, sha512 or sha3-256; the digest in hex.";
        }

        @Override
        public Map<String, Object> parameters() {
            return schema(List.of("algorithm", "data"), "algorithm", ToolArgs.oneOf(CryptoKeys.HASHES, "The hash function."),
                    "data", "The text to hash.");
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
            return Map.of("hex", CryptoKeys.hash(ToolArgs.required(args, "algorithm"),
                    ToolArgs.required(args, "data").getBytes(StandardCharsets.UTF_8)));
        }
    }
}
