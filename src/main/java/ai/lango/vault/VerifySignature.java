package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** crypto_verify: a signature of text checked against a signing key of the vault. */
final class VerifySignature extends CryptoTool {

    VerifySignature(Vault vault) {
        super("crypto_verify", Safety.SAFE, "Check a base64 signature of text against an ed25519 or ecdsa-p256 key of the"
                + " vault.", schema(List.of("key", "data", "signature"), "key", "The key's name.", "data",
                "The text that was signed.", "signature", "The base64 signature."), vault);
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
