/**
 * The edges and nothing else: /ws, the ADK-compatible REST/SSE API, the A2A card and endpoint, /mcp,
 * evaluation, usage, the admin API, the dev UI, access control, limits, health and metrics. This top
 * level holds what every edge shares (errors and JSON, paging, the caller, what a failed turn is, secret
 * masking of bodies); each edge is a sub-package of its own. Edges translate their wire format into the
 * application layer's calls ({@code ai.lango.turns}); they speak Lango's {@code turn} types and never
 * import ADK. Nothing imports this package.
 */
package ai.lango.api;
