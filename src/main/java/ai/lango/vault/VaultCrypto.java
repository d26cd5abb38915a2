package ai.lango.vault;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.spec.InvalidKeySpecException;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The vault's cryptography, all of it the JDK's: AES-256-GCM with a fresh 12-byte nonce per
 * encryption (stored before the ciphertext, the 16-byte tag after it) and associated data that binds
 * a ciphertext to what it is; PBKDF2-HMAC-SHA256 for a key from a passphrase.
 */
final class VaultCrypto {

    /** OWASP's figure for PBKDF2-HMAC-SHA256. */
    static final int PBKDF2_ITERATIONS = 600_000;
    static final int SALT_BYTES = 16;
    static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private VaultCrypto() {
    }

    static byte[] random(int bytes) {
        byte[] out = new byte[bytes];
        RANDOM.nextBytes(out);
        return out;
    }

    static SecretKey aesKey(byte[] bytes) {
        if (bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException("an AES-256 key has " + KEY_BYTES + " bytes, not " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    /** The key PBKDF2-HMAC-SHA256 derives from {@code passphrase}. */
    static SecretKey derive(char[] passphrase, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(passphrase, salt, iterations, KEY_BYTES * 8);
        try {
            byte[] key = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            try {
                return aesKey(key);
            } finally {
                Arrays.fill(key, (byte) 0);
            }
        } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is unavailable", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** nonce ‖ ciphertext ‖ tag of {@code plaintext} under {@code key}, bound to {@code associated}. */
    static byte[] seal(SecretKey key, byte[] plaintext, String associated) {
        byte[] nonce = random(NONCE_BYTES);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associated.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext);
            byte[] out = new byte[NONCE_BYTES + sealed.length];
            System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM failed", e);
        }
    }

    /** The plaintext {@link #seal} sealed; {@link TamperedException} when the key, the data or {@code associated} differ. */
    static byte[] open(SecretKey key, byte[] sealed, String associated) {
        if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new TamperedException();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            cipher.updateAAD(associated.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw new TamperedException();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM failed", e);
        }
    }

    static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    static byte[] unbase64(String text) {
        return Base64.getDecoder().decode(text);
    }

    /** A ciphertext that does not open: another key, changed bytes, or other associated data. */
    static final class TamperedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TamperedException() {
            super("the ciphertext does not open with this key (wrong key, or the data was changed)");
        }
    }
}
