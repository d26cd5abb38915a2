package ai.lango.vault;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The wrapped data key and the vault's version (lango_vault, one row). */
@Entity
@Table(name = "lango_vault")
public class VaultKeyEntity {

    static final String DATA = "data";

    @Id
    @Column(name = "id", nullable = false)
    String id;

    @Column(name = "kek_source", nullable = false)
    String kekSource;

    @Column(name = "kdf_salt")
    String kdfSalt;

    @Column(name = "kdf_iterations")
    Integer kdfIterations;

    @Column(name = "wrapped_key", nullable = false)
    String wrappedKey;

    @Column(name = "version", nullable = false)
    long version;

    @Column(name = "updated_at", nullable = false)
    long updatedAt;

    protected VaultKeyEntity() {
    }

    VaultKeyEntity(KeyEncryption.Wrapped wrapped, long now) {
        this.id = DATA;
        this.updatedAt = now;
        rewrap(wrapped, now);
    }

    void rewrap(KeyEncryption.Wrapped wrapped, long now) {
        this.kekSource = wrapped.source().name();
        this.kdfSalt = wrapped.salt();
        this.kdfIterations = wrapped.iterations();
        this.wrappedKey = wrapped.wrappedKey();
        this.updatedAt = now;
    }

    KeyEncryption.Wrapped wrapped() {
        return new KeyEncryption.Wrapped(KeyEncryption.Source.valueOf(kekSource), kdfSalt, kdfIterations, wrappedKey);
    }
}
