package ai.lango.vault;

import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** crypto_hash: the digest of text, in hex. */
final class HashText extends CryptoTool {

    HashText(Vault vault) {
        super("crypto_hash", Safety.SAFE, "Hash text (UTF-8) with sha256, sha512 or sha3-256; the digest in hex.",
                schema(List.of("algorithm", "data"), "algorithm", ToolArgs.oneOf(CryptoKeys.HASHES, "The hash function."),
                        "data", "The text to hash."), vault);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception {
        return Map.of("hex", CryptoKeys.hash(ToolArgs.required(args, "algorithm"),
                ToolArgs.required(args, "data").getBytes(StandardCharsets.UTF_8)));
    }
}
