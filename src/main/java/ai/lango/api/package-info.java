/**
 * The edges and nothing else: /ws, the ADK-compatible REST/SSE API, the admin API, the A2A card and
 * endpoint, the dev UI, access control, limits, health and metrics. Thin resources over the
 * services; speaks Lango's {@code turn} types and never imports ADK. Nothing imports this package.
 */
package ai.lango.api;
