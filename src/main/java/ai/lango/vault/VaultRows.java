package ai.lango.vault;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * lango_vault's and lango_secrets' units of work, each its own transaction. Every change to a secret
 * or key bumps the vault's version in the same transaction: what the other servers poll.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
class VaultRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    Optional<KeyEncryption.Wrapped> dataKey() {
        return Optional.ofNullable(em.find(VaultKeyEntity.class, VaultKeyEntity.DATA)).map(VaultKeyEntity::wrapped);
    }

    /** Keeps the first data key; fails (the primary key taken) when another server kept one first. */
    void insertDataKey(KeyEncryption.Wrapped wrapped) {
        em.persist(new VaultKeyEntity(wrapped, System.currentTimeMillis()));
        em.flush();
    }

    void rewrap(KeyEncryption.Wrapped wrapped) {
        em.find(VaultKeyEntity.class, VaultKeyEntity.DATA).rewrap(wrapped, System.currentTimeMillis());
    }

    long version() {
        return em.createQuery("SELECT v.version FROM VaultKeyEntity v WHERE v.id = :id", Long.class)
                .setParameter("id", VaultKeyEntity.DATA).getResultList().stream().findFirst().orElse(0L);
    }

    List<SecretEntity> all(VaultEntry.Kind kind) {
        return em.createQuery("SELECT s FROM SecretEntity s WHERE s.kind = :k", SecretEntity.class)
                .setParameter("k", kind.name()).getResultList();
    }

    Optional<SecretEntity> find(VaultEntry.Id id) {
        return em.createQuery("SELECT s FROM SecretEntity s WHERE s.owner = :o AND s.kind = :k AND s.name = :n", SecretEntity.class)
                .setParameter("o", id.owner()).setParameter("k", id.kind().name()).setParameter("n", id.name())
                .getResultList().stream().findFirst();
    }

    List<VaultEntry> list(List<String> owners, VaultEntry.Kind kind) {
        return em.createQuery("SELECT s FROM SecretEntity s WHERE s.owner IN :o AND s.kind = :k ORDER BY s.name, s.owner",
                        SecretEntity.class)
                .setParameter("o", owners).setParameter("k", kind.name()).getResultList().stream().map(SecretEntity::view).toList();
    }

    /**
     * Stores (or replaces) an entry, with a secret's binding (null: the one it has, the default for a
     * new one; a key has none); whether it was new.
     */
    boolean put(VaultEntry.Id id, String algorithm, String sealed, String publicKey, VaultEntry.Binding binding) {
        long now = System.currentTimeMillis();
        Optional<SecretEntity> existing = find(id);
        SecretEntity entity = existing.orElseGet(() -> new SecretEntity(UUID.randomUUID().toString(), id, algorithm, sealed,
                publicKey, now));
        if (existing.isPresent()) {
            entity.replace(algorithm, sealed, publicKey, now);
        }
        if (binding != null || existing.isEmpty()) {
            entity.bind(binding);
        }
        if (existing.isEmpty()) {
            em.persist(entity);
        }
        bump();
        em.flush();
        return existing.isEmpty();
    }

    boolean delete(VaultEntry.Id id) {
        int deleted = em.createQuery("DELETE FROM SecretEntity s WHERE s.owner = :o AND s.kind = :k AND s.name = :n")
                .setParameter("o", id.owner()).setParameter("k", id.kind().name()).setParameter("n", id.name()).executeUpdate();
        if (deleted > 0) {
            bump();
        }
        return deleted > 0;
    }

    private void bump() {
        em.createQuery("UPDATE VaultKeyEntity v SET v.version = v.version + 1 WHERE v.id = :id")
                .setParameter("id", VaultKeyEntity.DATA).executeUpdate();
    }
}
