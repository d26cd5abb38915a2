/**
 * Liveness, readiness, the database's and the heap's health (MicroProfile Health), and {@code /metrics}
 * (Prometheus or OpenMetrics, behind the same credential as the API).
 */
package ai.lango.api.health;
