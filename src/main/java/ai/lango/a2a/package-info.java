/**
 * The A2A protocol over JSON-RPC, versions 1.0 and 0.3: the model with a writer per version and readers that
 * take either, the agent card both versions read, the endpoint's logic, a task while its turn runs, the store
 * of tasks, and the client that reads agent cards and sends messages. Plain Java over Jackson and
 * java.net.http (and JPA for the store); no agent framework.
 */
package ai.lango.a2a;
