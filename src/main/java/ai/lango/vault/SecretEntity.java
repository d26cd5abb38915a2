package ai.lango.vault;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** One secret or key, its value sealed (lango_secrets). */
@Entity
@Table(name = "lango_secrets")
public class SecretEntity {

    @Id
    @Column(name = "id", nullable = false)
    String id;

    @Column(name = "owner", nullable = false)
    String owner;

    @Column(name = "kind", nullable = false)
    String kind;

    @Column(name = "name", nullable = false)
    String name;

    @Column(name = "algorithm")
    String algorithm;

    @Column(name = "sealed", nullable = false)
    String sealed;

    @Column(name = "public_key")
    String publicKey;

    @Column(name = "hosts")
    String hosts;

    @Column(name = "tools")
    String tools;

    @Column(name = "users")
    String users;

    @Column(name = "created_at", nullable = false)
    long createdAt;

    @Column(name = "updated_at", nullable = false)
    long updatedAt;

    protected SecretEntity() {
    }

    SecretEntity(String id, VaultEntry.Id key, String algorithm, String sealed, String publicKey, long now) {
        this.id = id;
        this.owner = key.owner();
        this.kind = key.kind().name();
        this.name = key.name();
        this.algorithm = algorithm;
        this.sealed = sealed;
        this.publicKey = publicKey;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /** A secret's binding, NULL columns for the defaults. */
    void bind(VaultEntry.Binding binding) {
        VaultEntry.Binding given = binding == null ? VaultEntry.Binding.DEFAULT : binding;
        this.hosts = given.hosts().isEmpty() ? null : String.join(",", given.hosts());
        this.tools = given.tools().equals(VaultEntry.Binding.DEFAULT_TOOLS) ? null : String.join(",", given.tools());
        this.users = given.users().isEmpty() ? null : String.join(",", given.users());
    }

    private static java.util.List<String> list(String joined, java.util.List<String> fallback) {
        return joined == null ? fallback : joined.isEmpty() ? java.util.List.of() : java.util.List.of(joined.split(","));
    }

    /** A new value (and, for a key, its algorithm and public half) in place of the old. */
    void replace(String algorithm, String sealed, String publicKey, long now) {
        this.algorithm = algorithm;
        this.sealed = sealed;
        this.publicKey = publicKey;
        this.updatedAt = now;
    }

    String name() {
        return name;
    }

    String sealed() {
        return sealed;
    }

    VaultEntry.Id key() {
        return new VaultEntry.Id(owner, VaultEntry.Kind.valueOf(kind), name);
    }

    /** What may be shown of it: never the value. */
    VaultEntry view() {
        return new VaultEntry(key(), algorithm, publicKey, Instant.ofEpochMilli(createdAt), Instant.ofEpochMilli(updatedAt),
                new VaultEntry.Binding(list(hosts, java.util.List.of()), list(tools, VaultEntry.Binding.DEFAULT_TOOLS),
                        list(users, java.util.List.of())));
    }
}
