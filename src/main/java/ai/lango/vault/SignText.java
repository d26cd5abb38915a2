package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** crypto_sign: text signed with an ed25519 or ecdsa-p256 key of the vault. */
final class SignText extends CryptoTool {

    SignText(Vault vault) {
        super("crypto_sign", Safety.DANGEROUS, "Sign text with an ed25519 or ecdsa-p256 key of the vault; the signature is"
                + " base64.", schema(List.of("key", "data"), "key", "The key's name.", "data", "The text to sign."), vault);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        Vault.Opened key = key(caller, args);
        byte[] signature = CryptoKeys.sign(key.entry().algorithm(), key.value(),
                ToolArgs.required(args, "data").getBytes(StandardCharsets.UTF_8));
        return Map.of("signature", VaultCrypto.base64(signature));
    }
}
