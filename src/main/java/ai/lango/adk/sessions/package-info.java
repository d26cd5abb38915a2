/**
 * ADK's session service over the durable session store: events to stored messages and back,
 * state scopes, the history view cut to the token budget and read from the newest compaction's summary on
 * ({@code CompactedHistory}; the background pass that writes compactions, {@code HistoryCompactor}), and the view one
 * run of a turn writes
 * through ({@code TurnSessions}: its user message committed while the model is called, its usage
 * committed with its answer).
 */
package ai.lango.adk.sessions;
