/**
 * The vault: secrets and keys kept encrypted in the database (AES-256-GCM under a data key, which a
 * key-encryption key from the passphrase or the data directory's key file wraps), shared by every
 * server on one database; the {@code {{secret:NAME}}} references tools' arguments carry instead of
 * values; the secrets_ and crypto_ tools. What the vault holds feeds {@link ai.lango.masking.SecretMask}.
 */
package ai.lango.vault;
