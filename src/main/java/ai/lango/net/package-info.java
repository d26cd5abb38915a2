/**
 * The protocol plumbing Lango's clients and edges share, each in one place: server-sent events
 * ({@code net.sse}), JSON-RPC 2.0 ({@code net.jsonrpc}), the HTTP client base ({@code net.http}) and
 * where the server's own connections may go ({@code net.egress}).
 */
package ai.lango.net;
