/**
 * What the user taught the agent and what it retrieves: the knowledge store, keyword and semantic
 * retrieval, the knowledge graph, and their tools and prompt sections. Plugs in through Toolset and
 * ContextSource; never imports ADK.
 */
package ai.lango.knowledge;
