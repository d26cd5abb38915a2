package ai.lango.vault;

import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.config.StartRefusal;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.SecretMask;
import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.crypto.SecretKey;

/**
 * The vault: opened at start (a key that cannot open it refuses the start, saying which key it
 * needs), it seals and opens secrets and keys under the data key, and keeps {@link SecretMask}
 * knowing every secret's value — at once on this server, within a second on the others of a cluster
 * (they poll the vault's version). Values exist decrypted only in this process's memory.
 */
@ApplicationScoped
public class Vault {

    private static final Logger LOG = MaskedLogs.of(Vault.class);
    /** The longest secret value. */
    public static final int MAX_VALUE_CHARS = 16 * 1024;
    /**
     * The shortest: a value is masked wherever it appears, so a short one could be confirmed by guessing
     * it whole (what a reader sees would change); eight characters is where guessing stops paying.
     */
    public static final int MIN_VALUE_CHARS = 8;

    @Inject
    LangoSettings.Vault settings;

    @Inject
    VaultRows rows;

    @Inject
    Ownership ownership;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    private volatile SecretKey dataKey;
    private volatile long version = -1;
    private ScheduledFuture<?> poll;

    void open(@Observes @Priority(150) @Initialized(ApplicationScoped.class) Object event) {
        try {
            dataKey = unlock(new KeyEncryption(settings.passphrase(), settings.keyFile()));
        } catch (KeyEncryption.LockedException e) {
            throw StartRefusal.exit(e.getMessage());
        }
        refresh();
        poll = scheduler.scheduleWithFixedDelay(this::poll, 1, 1, TimeUnit.SECONDS);
    }

    void close(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
        if (poll != null) {
            poll.cancel(false);
        }
    }

    /** The data key: the database's, unwrapped; made and kept at the first start (the first server of a cluster). */
    private SecretKey unlock(KeyEncryption kek) {
        Optional<KeyEncryption.Wrapped> stored = rows.dataKey();
        if (stored.isPresent()) {
            return kek.unwrap(stored.get());
        }
        SecretKey fresh = VaultCrypto.aesKey(VaultCrypto.random(VaultCrypto.KEY_BYTES));
        try {
            rows.insertDataKey(kek.wrap(fresh));
            LOG.info(() -> "Lango's vault was created, its key sealed " + (kek.source() == KeyEncryption.Source.PASSPHRASE
                    ? "with " + Keys.PASSPHRASE : "with the key file " + settings.keyFile() + " (back it up: without it the"
                    + " vault's secrets cannot be read)"));
            return fresh;
        } catch (RuntimeException raced) {
            // Another server of the cluster kept its data key first: that one counts.
            return kek.unwrap(rows.dataKey().orElseThrow(() -> raced));
        }
    }

    private void poll() {
        try {
            if (rows.version() != version) {
                refresh();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "the vault's version could not be read", e);
        }
    }

    /** Tells {@link SecretMask} every secret's value, as the database holds them now. */
    private synchronized void refresh() {
        long seen = rows.version();
        Map<String, SecretMask.Stored> secrets = new LinkedHashMap<>();
        for (SecretEntity entity : rows.all(VaultEntry.Kind.SECRET)) {
            try {
                VaultEntry entry = entity.view();
                secrets.putIfAbsent(new String(open(entity), StandardCharsets.UTF_8), new SecretMask.Stored(entry.name(),
                        entry.id().owner(), entry.shared(), java.util.Set.copyOf(entry.binding().users())));
            } catch (VaultCrypto.TamperedException e) {
                LOG.warning(() -> "the secret " + entity.name() + " does not decrypt (its row was changed); it is not used");
            }
        }
        SecretMask.stored(secrets);
        version = seen;
    }

    private byte[] open(SecretEntity entity) {
        return VaultCrypto.open(dataKey, VaultCrypto.unbase64(entity.sealed()), entity.key().associatedData());
    }

    /**
     * Stores {@code value} as the secret {@code name} of {@code owner}, bound to where it may go (null:
     * where it was bound, or the default for a new one); whether it was new. Masked from now on.
     */
    public boolean store(String owner, String name, String value, VaultEntry.Binding binding) {
        requireName(name);
        valueProblem(value).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        boolean created = put(new VaultEntry.Id(owner, VaultEntry.Kind.SECRET, name), null,
                value.getBytes(StandardCharsets.UTF_8), null, binding);
        refresh();
        return created;
    }

    /** What is wrong with {@code value} as a secret's value, if anything. */
    public static Optional<String> valueProblem(String value) {
        return value != null && value.length() >= MIN_VALUE_CHARS && value.length() <= MAX_VALUE_CHARS ? Optional.empty()
                : Optional.of("a secret's value has " + MIN_VALUE_CHARS + " to " + MAX_VALUE_CHARS
                        + " characters (a shorter one could be guessed whole)");
    }

    /** The entry (name, owner, binding; never the value) of the first of {@code owners} with a secret {@code name}. */
    public Optional<VaultEntry> secret(List<String> owners, String name) {
        for (String owner : owners) {
            Optional<SecretEntity> entity = rows.find(new VaultEntry.Id(owner, VaultEntry.Kind.SECRET, name));
            if (entity.isPresent()) {
                return Optional.of(entity.get().view());
            }
        }
        return Optional.empty();
    }

    /** Stores a key's secret material (sealed) and its public half; whether it was new. */
    boolean putKey(String owner, String name, String algorithm, byte[] material, String publicKey) {
        requireName(name);
        return put(new VaultEntry.Id(owner, VaultEntry.Kind.KEY, name), algorithm, material, publicKey, null);
    }

    /** A payment wallet's private key and its address. */
    public record WalletKey(String address, byte[] privateKey) {
        @Override
        public String toString() {
            return "WalletKey[" + address + "]";
        }
    }

    /** Stores a payment wallet's private key (sealed, every user's) with its address; whether it was new. */
    public boolean storeWalletKey(String name, byte[] privateKey, String address) {
        requireName(name);
        return put(new VaultEntry.Id(Ownership.SHARED, VaultEntry.Kind.WALLET, name), "secp256k1", privateKey, address, null);
    }

    /** A payment wallet's key, decrypted, when there is one. */
    public Optional<WalletKey> walletKey(String name) {
        return find(List.of(Ownership.SHARED), VaultEntry.Kind.WALLET, name)
                .map(opened -> new WalletKey(opened.entry().publicKey(), opened.value()));
    }

    private boolean put(VaultEntry.Id id, String algorithm, byte[] plaintext, String publicKey, VaultEntry.Binding binding) {
        String sealed = VaultCrypto.base64(VaultCrypto.seal(dataKey, plaintext, id.associatedData()));
        try {
            return rows.put(id, algorithm, sealed, publicKey, binding);
        } catch (RuntimeException raced) {
            // Another server stored the same name at the same moment: replace what it stored.
            return rows.put(id, algorithm, sealed, publicKey, binding);
        }
    }

    /** The secrets and keys of {@code owners} (every owner when null): names and dates, never values. */
    public List<VaultEntry> list(List<String> owners, VaultEntry.Kind kind) {
        return owners == null ? rows.all(kind).stream().map(SecretEntity::view).sorted(java.util.Comparator
                .comparing(VaultEntry::name).thenComparing(e -> e.id().owner())).toList() : rows.list(owners, kind);
    }

    /** Deletes a secret or key; whether there was one. */
    public boolean delete(VaultEntry.Id id) {
        boolean deleted = rows.delete(id);
        if (deleted && id.kind() == VaultEntry.Kind.SECRET) {
            refresh();
        }
        return deleted;
    }

    /** The entry of the first of {@code owners} that has one named {@code name}, with its decrypted value. */
    Optional<Opened> find(List<String> owners, VaultEntry.Kind kind, String name) {
        for (String owner : owners) {
            Optional<SecretEntity> entity = rows.find(new VaultEntry.Id(owner, kind, name));
            if (entity.isPresent()) {
                return Optional.of(new Opened(entity.get().view(), open(entity.get())));
            }
        }
        return Optional.empty();
    }

    /** An entry and its value, in memory only. */
    record Opened(VaultEntry entry, byte[] value) {
    }

    /** Whose are the secrets and keys a tool call stores: its user's (the shared ones for those who administer, and with no user). */
    String ownerOf(Caller caller) {
        return ownership.ownerOf(caller);
    }

    /** Whose secrets {@code owner}'s tools use, in the order a name is looked up: the owner's own, then the shared ones. */
    public static List<String> lookupOrder(String owner) {
        return Ownership.SHARED.equals(owner) ? List.of(Ownership.SHARED) : List.of(owner, Ownership.SHARED);
    }

    /**
     * Wraps the data key under {@code newPassphrase} (a fresh salt): the secrets stay as they are,
     * and from the next start the server needs that passphrase. Every server of a cluster needs it then.
     */
    public void rewrap(String newPassphrase) {
        if (newPassphrase == null || newPassphrase.length() < 12) {
            throw new IllegalArgumentException("a passphrase has at least 12 characters");
        }
        rows.rewrap(KeyEncryption.wrapWith(dataKey, newPassphrase));
        SecretMask.configured(Keys.PASSPHRASE.key(), newPassphrase);
        LOG.info("Lango's vault key was sealed with a new passphrase; set " + Keys.PASSPHRASE + " to it before the next start");
    }

    private static void requireName(String name) {
        if (!VaultEntry.validName(name)) {
            throw new IllegalArgumentException("a name has 1 to 64 letters, digits, '.', '_' or '-', starting with a letter"
                    + " or digit");
        }
    }
}
