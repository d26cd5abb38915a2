/**
 * {@code /ws}: the socket and its frames, a turn's events as frames, which socket waits for which answer to a
 * request for approval, the sockets open per user, and the ordered outbox of a connection. Turns are started,
 * answered and stopped through the application layer ({@code ai.lango.turns}). Beside it, what the chat page asks over
 * HTTP: who the caller is ({@code GET api/me}) and the browser's sign-in cookie ({@code api/signin}).
 */
package ai.lango.api.chat;
