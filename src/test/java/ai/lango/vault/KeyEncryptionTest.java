package ai.lango.vault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyEncryptionTest {

    @TempDir
    Path dir;

    private final SecretKey dataKey = VaultCrypto.aesKey(VaultCrypto.random(32));

    @Test
    void aPassphraseWrapsWithAFreshSaltAndOwaspsIterations() {
        KeyEncryption kek = new KeyEncryption(Optional.of("correct horse battery"), dir.resolve("vault.key"));
        KeyEncryption.Wrapped wrapped = kek.wrap(dataKey);
        assertEquals(KeyEncryption.Source.PASSPHRASE, wrapped.source());
        assertTrue(wrapped.iterations() >= 600_000);
        assertEquals(16, VaultCrypto.unbase64(wrapped.salt()).length);
        assertTrue(!wrapped.salt().equals(kek.wrap(dataKey).salt()), "a random salt per wrap");
        assertArrayEquals(dataKey.getEncoded(), kek.unwrap(wrapped).getEncoded());
        assertTrue(Files.notExists(dir.resolve("vault.key")), "no key file with a passphrase");
    }

    @Test
    void aWrongPassphraseIsRefusedSayingSo() {
        KeyEncryption.Wrapped wrapped = new KeyEncryption(Optional.of("correct horse battery"), dir.resolve("k")).wrap(dataKey);
        KeyEncryption.LockedException refused = assertThrows(KeyEncryption.LockedException.class,
                () -> new KeyEncryption(Optional.of("wrong horse battery"), dir.resolve("k")).unwrap(wrapped));
        assertTrue(refused.getMessage().startsWith("wrong passphrase"), refused.getMessage());
        assertTrue(assertThrows(KeyEncryption.LockedException.class, () -> new KeyEncryption(Optional.empty(), dir.resolve("k"))
                .unwrap(wrapped)).getMessage().contains("set lango.security.passphrase"));
    }

    @Test
    void withoutAPassphraseAKeyFileReadableByItsOwnerOnlyIsCreatedAndUsed() throws Exception {
        Path file = dir.resolve("vault.key");
        KeyEncryption kek = new KeyEncryption(Optional.empty(), file);
        KeyEncryption.Wrapped wrapped = kek.wrap(dataKey);
        assertEquals(KeyEncryption.Source.KEY_FILE, wrapped.source());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertArrayEquals(dataKey.getEncoded(), new KeyEncryption(Optional.empty(), file).unwrap(wrapped).getEncoded());
        assertTrue(Files.readString(file).length() < 64, "only the key");

        Path other = dir.resolve("other.key");
        new KeyEncryption(Optional.empty(), other).wrap(VaultCrypto.aesKey(VaultCrypto.random(32)));
        assertTrue(assertThrows(KeyEncryption.LockedException.class, () -> new KeyEncryption(Optional.empty(), other)
                .unwrap(wrapped)).getMessage().contains("does not open the vault"));
        assertTrue(assertThrows(KeyEncryption.LockedException.class, () -> new KeyEncryption(Optional.empty(),
                dir.resolve("missing.key")).unwrap(wrapped)).getMessage().contains("which is missing"));
        assertTrue(assertThrows(KeyEncryption.LockedException.class, () -> new KeyEncryption(Optional.of("a passphrase now"),
                file).unwrap(wrapped)).getMessage().contains("POST /api/admin/vault/passphrase"));
    }
}
