/**
 * Traces and metrics in OpenTelemetry's GenAI conventions, through the OpenTelemetry of Liberty's mpTelemetry (a
 * no-op until the standard OTEL_* variables turn it on): the tracer every part of Lango asks, the GenAI metrics,
 * the W3C trace context for HTTP peers, and the trace id each log line of a turn carries.
 */
package ai.lango.telemetry;
