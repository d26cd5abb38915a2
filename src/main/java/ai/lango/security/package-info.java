/**
 * Who is calling, and what they may do: the caller's identity from a credential (the operator's
 * token, a user's API token, a JWT from the team's identity provider), the API tokens an
 * administrator issues (stored hashed). Imports config and turn; the edges (api) use it.
 */
package ai.lango.security;
