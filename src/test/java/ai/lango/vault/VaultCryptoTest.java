package ai.lango.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/** Known-answer vectors for what the vault is built on, and a ciphertext that must not open. */
class VaultCryptoTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void pbkdf2HmacSha256MatchesRfc7914() {
        // RFC 7914, section 11: the first 32 bytes of each 64-byte output (PBKDF2's blocks are independent).
        assertEquals("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc",
                HEX.formatHex(VaultCrypto.derive("passwd".toCharArray(), "salt".getBytes(StandardCharsets.US_ASCII), 1).getEncoded()));
        assertEquals("4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56",
                HEX.formatHex(VaultCrypto.derive("Password".toCharArray(), "NaCl".getBytes(StandardCharsets.US_ASCII), 80000).getEncoded()));
    }

    @Test
    void aesGcmOpensTheNistTestCase() {
        // The GCM specification's test case 15: AES-256, a 96-bit IV, no associated data.
        SecretKey key = VaultCrypto.aesKey(HEX.parseHex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"));
        byte[] sealed = HEX.parseHex("cafebabefacedbaddecaf888"
                + "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
                + "b094dac5d93471bdec1a502270e3cc6c");
        assertEquals("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
                HEX.formatHex(VaultCrypto.open(key, sealed, "")));
    }

    @Test
    void eachSealHasAFreshNonceAndOpensOnlyWithItsKeyAndAssociatedData() {
        SecretKey key = VaultCrypto.aesKey(VaultCrypto.random(32));
        byte[] plaintext = "the value".getBytes(StandardCharsets.UTF_8);
        byte[] first = VaultCrypto.seal(key, plaintext, "secret::github");
        byte[] second = VaultCrypto.seal(key, plaintext, "secret::github");
        assertNotEquals(HEX.formatHex(first), HEX.formatHex(second), "a fresh nonce each time");
        assertArrayEquals(plaintext, VaultCrypto.open(key, first, "secret::github"));
        assertThrows(VaultCrypto.TamperedException.class, () -> VaultCrypto.open(key, first, "secret::gitlab"),
                "a ciphertext moved to another name does not open");
        assertThrows(VaultCrypto.TamperedException.class,
                () -> VaultCrypto.open(VaultCrypto.aesKey(VaultCrypto.random(32)), first, "secret::github"));
        for (int i = 0; i < first.length; i++) {
            byte[] tampered = Arrays.copyOf(first, first.length);
            tampered[i] ^= 1;
            assertThrows(VaultCrypto.TamperedException.class, () -> VaultCrypto.open(key, tampered, "secret::github"),
                    "a flipped bit at " + i + " is refused");
        }
    }
}
