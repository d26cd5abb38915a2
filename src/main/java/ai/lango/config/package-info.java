/**
 * The configuration: read once from MicroProfile Config, validated (an invalid value stops the
 * start with one clear message), and handed out as one small record per subsystem. Also the rules
 * every edge shares (ids) and the refusals that must happen before the server listens. Imports
 * provider (its catalog of ids and keys), turn (names) and masking.
 */
package ai.lango.config;
