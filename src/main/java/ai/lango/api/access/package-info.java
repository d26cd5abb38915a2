/**
 * Who may call and from where, before any edge reads a request: the bearer credential (or the chat page's sign-in
 * cookie, for ADK's dev UI), the Host names the server answers to, the pages (Origins) that may drive it, the methods
 * each path serves, the body limit, and framing.
 */
package ai.lango.api.access;
