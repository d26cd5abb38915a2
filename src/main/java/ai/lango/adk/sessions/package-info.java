/**
 * ADK's session service over the durable session store: events to stored messages and back,
 * state scopes, and the history view cut to the token budget. May import ADK and session.
 */
package ai.lango.adk.sessions;
