package ai.lango.vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The crypto tools' computations against published vectors (RFC 8032, FIPS 180/202), and round trips. */
class CryptoKeysTest {

    private static final HexFormat HEX = HexFormat.of();
    /** SubjectPublicKeyInfo's prefix for an Ed25519 key, before the 32 raw bytes. */
    private static final String ED25519_SPKI = "302a300506032b6570032100";

    private static byte[] ed25519Pkcs8(String seedHex) throws Exception {
        return KeyFactory.getInstance("Ed25519").generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519,
                HEX.parseHex(seedHex))).getEncoded();
    }

    @Test
    void ed25519SignsAsRfc8032Test1And2() throws Exception {
        byte[] key1 = ed25519Pkcs8("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
        assertEquals("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
                HEX.formatHex(CryptoKeys.sign(CryptoKeys.ED25519, key1, new byte[0])));
        byte[] key2 = ed25519Pkcs8("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb");
        byte[] signature2 = CryptoKeys.sign(CryptoKeys.ED25519, key2, HEX.parseHex("72"));
        assertEquals("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
                HEX.formatHex(signature2));
        String public2 = Base64.getEncoder().encodeToString(HEX.parseHex(ED25519_SPKI
                + "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"));
        assertTrue(CryptoKeys.verify(CryptoKeys.ED25519, public2, HEX.parseHex("72"), signature2));
        assertFalse(CryptoKeys.verify(CryptoKeys.ED25519, public2, HEX.parseHex("73"), signature2), "another message");
    }

    @Test
    void hashesMatchTheStandardsVectors() throws Exception {
        byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", CryptoKeys.hash("sha256", abc));
        assertEquals("ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                CryptoKeys.hash("sha512", abc));
        assertEquals("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532", CryptoKeys.hash("sha3-256", abc));
        assertThrows(IllegalArgumentException.class, () -> CryptoKeys.hash("md5", abc));
    }

    @Test
    void generatedKeysSignVerifyEncryptAndDecrypt() throws Exception {
        for (String type : new String[] {CryptoKeys.ED25519, CryptoKeys.ECDSA}) {
            CryptoKeys.Material key = CryptoKeys.generate(type);
            byte[] data = "pay 1 USDC".getBytes(StandardCharsets.UTF_8);
            byte[] signature = CryptoKeys.sign(type, key.secret(), data);
            assertTrue(CryptoKeys.verify(type, key.publicKey(), data, signature), type);
            assertFalse(CryptoKeys.verify(type, key.publicKey(), "pay 9 USDC".getBytes(StandardCharsets.UTF_8), signature), type);
        }
        CryptoKeys.Material aes = CryptoKeys.generate(CryptoKeys.AES);
        String ciphertext = CryptoKeys.encrypt(aes.secret(), "hello");
        assertNotEquals(ciphertext, CryptoKeys.encrypt(aes.secret(), "hello"));
        assertEquals("hello", CryptoKeys.decrypt(aes.secret(), ciphertext));
        byte[] tampered = Base64.getDecoder().decode(ciphertext);
        tampered[tampered.length - 1] ^= 1;
        assertThrows(VaultCrypto.TamperedException.class,
                () -> CryptoKeys.decrypt(aes.secret(), Base64.getEncoder().encodeToString(tampered)));
    }
}
