package ai.lango.vault;

import ai.lango.config.Keys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * The key-encryption key, which wraps the vault's data key: from the passphrase through
 * PBKDF2-HMAC-SHA256 (a random salt per wrap, {@link VaultCrypto#PBKDF2_ITERATIONS} iterations), or,
 * with no passphrase set, a random key in the data directory's key file (created on first need,
 * readable by its owner only). What cannot open the vault says which key to give.
 */
final class KeyEncryption {

    /** Where the key-encryption key comes from. */
    enum Source { PASSPHRASE, KEY_FILE }

    /** The data key as the database keeps it: wrapped, with what derives the key that unwraps it. */
    record Wrapped(Source source, String salt, Integer iterations, String wrappedKey) {
    }

    /** The data key's ciphertext is bound to this. */
    private static final String DATA_KEY_AAD = "lango-vault-data-key";

    private final Optional<String> passphrase;
    private final Path keyFile;

    KeyEncryption(Optional<String> passphrase, Path keyFile) {
        this.passphrase = passphrase;
        this.keyFile = keyFile;
    }

    Source source() {
        return passphrase.isPresent() ? Source.PASSPHRASE : Source.KEY_FILE;
    }

    /** {@code dataKey} wrapped by this key-encryption key (the key file created if it does not exist yet). */
    Wrapped wrap(SecretKey dataKey) {
        return passphrase.map(p -> wrapWith(dataKey, p)).orElseGet(() -> {
            SecretKey kek = VaultCrypto.aesKey(readOrCreateKeyFile());
            return new Wrapped(Source.KEY_FILE, null, null, VaultCrypto.base64(VaultCrypto.seal(kek, dataKey.getEncoded(), DATA_KEY_AAD)));
        });
    }

    /** {@code dataKey} wrapped under {@code newPassphrase}, with a fresh salt. */
    static Wrapped wrapWith(SecretKey dataKey, String newPassphrase) {
        byte[] salt = VaultCrypto.random(VaultCrypto.SALT_BYTES);
        char[] chars = newPassphrase.toCharArray();
        try {
            SecretKey kek = VaultCrypto.derive(chars, salt, VaultCrypto.PBKDF2_ITERATIONS);
            return new Wrapped(Source.PASSPHRASE, VaultCrypto.base64(salt), VaultCrypto.PBKDF2_ITERATIONS,
                    VaultCrypto.base64(VaultCrypto.seal(kek, dataKey.getEncoded(), DATA_KEY_AAD)));
        } finally {
            Arrays.fill(chars, '\0');
        }
    }

    /** The data key {@code wrapped} holds; {@link LockedException} saying what to do when this key cannot open it. */
    SecretKey unwrap(Wrapped wrapped) {
        SecretKey kek;
        if (wrapped.source() == Source.PASSPHRASE) {
            if (passphrase.isEmpty()) {
                throw new LockedException("the vault in the database is sealed with a passphrase and none is set: set "
                        + Keys.PASSPHRASE + " (or LANGO_SECURITY_PASSPHRASE, or " + Keys.PASSPHRASE_FILE + ")");
            }
            char[] chars = passphrase.get().toCharArray();
            try {
                kek = VaultCrypto.derive(chars, VaultCrypto.unbase64(wrapped.salt()), wrapped.iterations());
            } finally {
                Arrays.fill(chars, '\0');
            }
        } else {
            if (passphrase.isPresent()) {
                throw new LockedException("the vault in the database is sealed with a key file, not a passphrase: start"
                        + " without " + Keys.PASSPHRASE + ", then move it to the passphrase with POST /api/admin/vault/passphrase");
            }
            if (!Files.exists(keyFile)) {
                throw new LockedException("the vault in the database is sealed with the key file " + keyFile
                        + ", which is missing: restore it from your backup");
            }
            kek = VaultCrypto.aesKey(readKeyFile());
        }
        try {
            return VaultCrypto.aesKey(VaultCrypto.open(kek, VaultCrypto.unbase64(wrapped.wrappedKey()), DATA_KEY_AAD));
        } catch (VaultCrypto.TamperedException e) {
            throw new LockedException(wrapped.source() == Source.PASSPHRASE
                    ? "wrong passphrase: " + Keys.PASSPHRASE + " does not open the vault in the database"
                    : "the key file " + keyFile + " does not open the vault in the database (it is another server's or"
                    + " another installation's): put back the right one; servers sharing one database need one "
                    + Keys.PASSPHRASE);
        }
    }

    private byte[] readKeyFile() {
        try {
            byte[] key = VaultCrypto.unbase64(Files.readString(keyFile, StandardCharsets.US_ASCII).strip());
            if (key.length != VaultCrypto.KEY_BYTES) {
                throw new LockedException("the key file " + keyFile + " is damaged (it holds " + key.length + " bytes, not "
                        + VaultCrypto.KEY_BYTES + "): put back the one from your backup");
            }
            return key;
        } catch (IOException | IllegalArgumentException e) {
            throw new LockedException("the key file " + keyFile + " cannot be read (" + e.getMessage() + ")");
        }
    }

    /** The key file's key, the file written first if it does not exist: whole (a temporary file moved in place), synced, owner-only. */
    private byte[] readOrCreateKeyFile() {
        if (Files.exists(keyFile)) {
            return readKeyFile();
        }
        byte[] key = VaultCrypto.random(VaultCrypto.KEY_BYTES);
        try {
            Path temporary = keyFile.resolveSibling(keyFile.getFileName() + ".new");
            Files.deleteIfExists(temporary);
            try {
                Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException noPosix) {
                Files.createFile(temporary);
            }
            try (var channel = java.nio.channels.FileChannel.open(temporary, java.nio.file.StandardOpenOption.WRITE)) {
                channel.write(java.nio.ByteBuffer.wrap((VaultCrypto.base64(key) + "\n").getBytes(StandardCharsets.US_ASCII)));
                channel.force(true);
            }
            try {
                Files.move(temporary, keyFile, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, keyFile);
            }
            return key;
        } catch (FileAlreadyExistsException raced) {
            return readKeyFile();
        } catch (IOException e) {
            throw new LockedException("the key file " + keyFile + " cannot be created (" + e.getMessage() + ")");
        }
    }

    /** The vault cannot be opened with the key given; the message says which key it needs. */
    static final class LockedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LockedException(String message) {
            super(message);
        }
    }
}
