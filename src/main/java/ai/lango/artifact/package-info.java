/**
 * Session artifacts kept in the database (lango_artifacts): named byte strings with a MIME type,
 * each save a new version (0, 1, 2… per session and name, as ADK numbers them), such as the browser's
 * screenshots. Plain Java and JPA, no ADK: {@code ai.lango.adk.artifacts} adapts the store to ADK's
 * artifact service, the edges serve ADK's artifact routes from it, and tools save through it. A
 * session's artifacts go with the session ({@link ai.lango.session.SessionDeleted}). Imports turn,
 * session and masking.
 */
package ai.lango.artifact;
