/**
 * Who is calling, and what they may do: the caller's identity from a credential (the operator's
 * token, a user's API token, a JWT from the team's identity provider), the API tokens an
 * administrator issues (stored hashed), who owns a row, and the quotas (requests per minute, turns
 * at once, sessions and their state). Imports config, turn, tool (a caller's ownership) and masking.
 */
package ai.lango.security;
