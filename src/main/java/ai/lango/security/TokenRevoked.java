package ai.lango.security;

/**
 * Fired when a user's API token stops holding (revoked, or replaced by a new one): what was opened
 * with it closes at once on this server; the other servers of a cluster find out within seconds
 * ({@link Credentials#stillIssued}).
 */
public record TokenRevoked(String userId) {
}
