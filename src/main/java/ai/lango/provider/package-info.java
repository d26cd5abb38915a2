/**
 * Model providers over java.net.http: OpenAI and any OpenAI-compatible server, Anthropic, Gemini
 * and Ollama behind one streaming interface, and the catalog of what is known about each. Their
 * HTTP and server-sent events are {@code ai.lango.net}'s.
 */
package ai.lango.provider;
