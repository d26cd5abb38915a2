/**
 * What the user taught the agent: the knowledge store and keyword search over it (semantic search is
 * retrieval's: each entry is handed to it when saved, and listed as a Corpus), the knowledge tools and
 * the User Knowledge section. Plugs in through Toolset, ContextSource and Corpus; never imports ADK.
 */
package ai.lango.knowledge;
