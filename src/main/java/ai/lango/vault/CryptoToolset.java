package ai.lango.vault;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

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
        return List.of(new ManageKeys(vault), new EncryptText(vault), new DecryptText(vault), new SignText(vault),
                new VerifySignature(vault), new HashText(vault));
    }
}
