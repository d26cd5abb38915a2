package ai.lango.payment;

import ai.lango.masking.SecretMask;
import ai.lango.vault.Vault;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Optional;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * The server's payment wallet: a secp256k1 key sealed in the vault (kind WALLET, which the crypto
 * tools neither list nor touch), created by payment_create_wallet or imported by an operator. The
 * private key is opened only to sign, masked everywhere as [SECRET:lango.payment.wallet-key], and
 * never shown.
 */
@ApplicationScoped
public class Wallet {

    static final String NAME = "payment-wallet";
    private static final String MASK_NAME = "lango.payment.wallet-key";
    /** secp256k1's group order: a private key is from 1 to one below it. */
    private static final BigInteger ORDER = new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    @Inject
    Vault vault;

    /** The wallet's checksummed address, when there is a wallet. */
    public Optional<String> address() {
        return vault.walletKey(NAME).map(Vault.WalletKey::address);
    }

    /** The signer, when there is a wallet. */
    Optional<Credentials> credentials() {
        return vault.walletKey(NAME).map(key -> {
            byte[] material = key.privateKey();
            try {
                BigInteger secret = Numeric.toBigInt(material);
                SecretMask.configured(MASK_NAME, Numeric.toHexStringNoPrefixZeroPadded(secret, 64));
                return Credentials.create(ECKeyPair.create(secret));
            } finally {
                Arrays.fill(material, (byte) 0);
            }
        });
    }

    /** Creates a wallet with a fresh key; refused when there is one (its funds would be lost to reach). */
    public String create() {
        if (address().isPresent()) {
            throw new IllegalStateException("there is a wallet already (" + address().get() + "); its key stays");
        }
        BigInteger secret;
        do {
            byte[] random = new byte[32];
            RANDOM.nextBytes(random);
            secret = new BigInteger(1, random);
            Arrays.fill(random, (byte) 0);
        } while (secret.signum() == 0 || secret.compareTo(ORDER) >= 0);
        return store(ECKeyPair.create(secret));
    }

    /** Imports a private key (64 hex digits, 0x optional); replaces an existing wallet only when {@code replace}. */
    public String importKey(String hex, boolean replace) {
        String digits = hex == null ? "" : hex.strip().replaceFirst("^0x", "");
        if (!digits.matches("[0-9a-fA-F]{64}")) {
            throw new IllegalArgumentException("a private key is 64 hexadecimal digits (0x optional)");
        }
        BigInteger secret = new BigInteger(digits, 16);
        if (secret.signum() == 0 || secret.compareTo(ORDER) >= 0) {
            throw new IllegalArgumentException("that is not a valid secp256k1 private key");
        }
        if (address().isPresent() && !replace) {
            throw new IllegalStateException("there is a wallet already (" + address().get() + "); replace it explicitly");
        }
        SecretMask.configured(MASK_NAME, digits.toLowerCase(java.util.Locale.ROOT));
        return store(ECKeyPair.create(secret));
    }

    private String store(ECKeyPair pair) {
        String address = Keys.toChecksumAddress(Keys.getAddress(pair));
        byte[] material = Numeric.toBytesPadded(pair.getPrivateKey(), 32);
        try {
            vault.storeWalletKey(NAME, material, address);
        } finally {
            Arrays.fill(material, (byte) 0);
        }
        return address;
    }
}
