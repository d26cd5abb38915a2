/**
 * Durable sessions: the JPA entities, the store (each write one transaction, appends of concurrent
 * turns committed together, the sessions' views kept between turns where the server is the
 * database's only writer), the token estimate and history truncation. Knows no agent framework;
 * imports config.
 */
package ai.lango.session;
