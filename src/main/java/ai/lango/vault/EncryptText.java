package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.util.List;
import java.util.Map;

/** crypto_encrypt: text encrypted with an AES key of the vault. */
final class EncryptText extends CryptoTool {

    EncryptText(Vault vault) {
        super("crypto_encrypt", Safety.SAFE, "Encrypt text with an aes-256-gcm key of the vault; the ciphertext is base64.",
                schema(List.of("key", "plaintext"), "key", "The key's name.", "plaintext", "The text to encrypt."), vault);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        return Map.of("ciphertext", CryptoKeys.encrypt(aesKey(caller, args).value(), ToolArgs.required(args, "plaintext")));
    }
}
