/**
 * ADK's API, as ADK's own API server speaks it (so ADK's dev UI and clients work unchanged): list-apps, run and
 * run_sse (turns through the application layer, events as ADK's own JSON), sessions and artifacts, the dev UI's
 * graph, builder and trace routes, and the dev UI's files.
 */
package ai.lango.api.adk;
