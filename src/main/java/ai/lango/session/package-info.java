/**
 * Durable sessions: the JPA entities, the store (each write one transaction, appends of concurrent
 * turns committed together, the sessions' views kept between turns where the server is the
 * database's only writer; a turn's model-call usage written in the same transaction as its answer),
 * the session leases, the durable turns' rows (a turn's state and server, written with its user's message; the turns
 * a crash left running), the token estimate and history truncation. Knows no agent framework; imports
 * config, database, turn, usage and masking.
 */
package ai.lango.session;
