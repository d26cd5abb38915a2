/**
 * The database at start-up: the configuration checked, the schema migrated by Flyway from
 * db/migration (every subsystem adds its tables there, in the next version number), the embedded
 * database's durability settings, and an earlier version's H2 data imported; and which keys (owners,
 * sessions) have rows in a table, where the server is the database's only writer. Imports config and
 * masking.
 */
package ai.lango.database;
