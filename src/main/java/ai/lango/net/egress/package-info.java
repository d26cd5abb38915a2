/**
 * Where the server's own connections on the agent's behalf may go: {@link
 * ai.lango.net.egress.HostPolicy} (decided on the resolved addresses), the {@link
 * ai.lango.net.egress.EgressProxy} that holds every connection to that decision, and {@link
 * ai.lango.net.egress.Egress}, the bean the browser, payments (x402) and skills (downloads, git) go
 * out through.
 */
package ai.lango.net.egress;
