package ai.lango.vault;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * What the crypto tools compute, all with the JDK's JCA: keys of three kinds (AES-256-GCM for
 * encryption; Ed25519 and ECDSA P-256 with SHA-256 for signatures), and hashes (SHA-256, SHA-512,
 * SHA3-256). A key's secret half is what the vault seals: raw for AES, PKCS#8 for a private key;
 * the public half is X.509 (SubjectPublicKeyInfo), base64.
 */
final class CryptoKeys {

    static final String AES = "aes-256-gcm";
    static final String ED25519 = "ed25519";
    static final String ECDSA = "ecdsa-p256";
    static final List<String> TYPES = List.of(AES, ED25519, ECDSA);
    static final List<String> HASHES = List.of("sha256", "sha512", "sha3-256");
    /** What an AES ciphertext is bound to, so one made elsewhere with the same key is not taken for one of these. */
    private static final String ENCRYPT_AAD = "lango-crypto-encrypt";

    /** A new key: its secret half and its public half (null for AES). */
    record Material(byte[] secret, String publicKey) {
    }

    private CryptoKeys() {
    }

    static Material generate(String type) throws GeneralSecurityException {
        return switch (type) {
            case AES -> new Material(VaultCrypto.random(VaultCrypto.KEY_BYTES), null);
            case ED25519 -> pair(KeyPairGenerator.getInstance("Ed25519").generateKeyPair());
            case ECDSA -> {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
                generator.initialize(new ECGenParameterSpec("secp256r1"));
                yield pair(generator.generateKeyPair());
            }
            default -> throw new IllegalArgumentException("unknown key type \"" + type + "\"; accepted: " + TYPES);
        };
    }

    private static Material pair(KeyPair pair) {
        return new Material(pair.getPrivate().getEncoded(), VaultCrypto.base64(pair.getPublic().getEncoded()));
    }

    /** base64 of nonce ‖ ciphertext ‖ tag. */
    static String encrypt(byte[] key, String plaintext) {
        return VaultCrypto.base64(VaultCrypto.seal(VaultCrypto.aesKey(key), plaintext.getBytes(StandardCharsets.UTF_8), ENCRYPT_AAD));
    }

    /** The plaintext; {@link VaultCrypto.TamperedException} when the ciphertext was changed or is another key's. */
    static String decrypt(byte[] key, String ciphertext) {
        return new String(VaultCrypto.open(VaultCrypto.aesKey(key), VaultCrypto.unbase64(ciphertext), ENCRYPT_AAD),
                StandardCharsets.UTF_8);
    }

    static byte[] sign(String type, byte[] pkcs8, byte[] data) throws GeneralSecurityException {
        PrivateKey key = KeyFactory.getInstance(keyAlgorithm(type)).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        Signature signature = Signature.getInstance(signatureAlgorithm(type));
        signature.initSign(key);
        signature.update(data);
        return signature.sign();
    }

    static boolean verify(String type, String publicKey, byte[] data, byte[] signatureBytes) throws GeneralSecurityException {
        PublicKey key = KeyFactory.getInstance(keyAlgorithm(type)).generatePublic(new X509EncodedKeySpec(VaultCrypto.unbase64(publicKey)));
        Signature signature = Signature.getInstance(signatureAlgorithm(type));
        signature.initVerify(key);
        signature.update(data);
        try {
            return signature.verify(signatureBytes);
        } catch (java.security.SignatureException malformed) {
            return false;
        }
    }

    static String hash(String algorithm, byte[] data) throws GeneralSecurityException {
        String jca = switch (algorithm.toLowerCase(Locale.ROOT)) {
            case "sha256" -> "SHA-256";
            case "sha512" -> "SHA-512";
            case "sha3-256" -> "SHA3-256";
            default -> throw new IllegalArgumentException("unknown hash \"" + algorithm + "\"; accepted: " + HASHES);
        };
        return HexFormat.of().formatHex(MessageDigest.getInstance(jca).digest(data));
    }

    private static String keyAlgorithm(String type) {
        return switch (type) {
            case ED25519 -> "Ed25519";
            case ECDSA -> "EC";
            default -> throw new IllegalArgumentException("a " + type + " key does not sign; use an " + ED25519 + " or "
                    + ECDSA + " key");
        };
    }

    private static String signatureAlgorithm(String type) {
        return type.equals(ED25519) ? "Ed25519" : "SHA256withECDSA";
    }
}
