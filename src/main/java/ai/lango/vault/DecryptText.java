package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.util.List;
import java.util.Map;

/** crypto_decrypt: a ciphertext of crypto_encrypt decrypted with its AES key. */
final class DecryptText extends CryptoTool {

    DecryptText(Vault vault) {
        super("crypto_decrypt", Safety.MODERATE, "Decrypt a base64 ciphertext that crypto_encrypt made with an aes-256-gcm key"
                + " of the vault.", schema(List.of("key", "ciphertext"), "key", "The key's name.", "ciphertext",
                "The base64 ciphertext."), vault);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        return Map.of("plaintext", CryptoKeys.decrypt(aesKey(caller, args).value(), ToolArgs.required(args, "ciphertext")));
    }
}
