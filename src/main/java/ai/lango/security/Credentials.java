package ai.lango.security;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The caller's identity from what they present ("Authorization: Bearer …" on HTTP, the auth
 * frame's token on /ws): the operator's lango.auth.token, a user's API token, or a JWT of the
 * configured identity provider. With none of those configured Lango is a single-operator server,
 * and every caller is the operator.
 */
@ApplicationScoped
public class Credentials {

    @Inject
    LangoSettings.Access access;

    @Inject
    UserTokenStore users;

    private volatile JwtVerifier jwt;

    /** Whether callers must show a credential at all. */
    public boolean required() {
        return access.authenticates();
    }

    /** Who presents {@code credential}; empty when it names nobody (and one is required). */
    public Optional<Identity> identify(String credential) {
        if (!required()) {
            return Optional.of(Identity.OPERATOR);
        }
        if (credential == null || credential.isBlank()) {
            return Optional.empty();
        }
        String presented = credential.strip();
        if (access.token().filter(token -> MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8))).isPresent()) {
            return Optional.of(Identity.OPERATOR);
        }
        Optional<Identity> user = users.identify(presented);
        if (user.isPresent()) {
            return user;
        }
        return access.jwt().flatMap(settings -> verifier(settings).verify(presented));
    }

    /** Who an "Authorization: Bearer …" header names. */
    public Optional<Identity> fromAuthorization(String header) {
        if (!required()) {
            return Optional.of(Identity.OPERATOR);
        }
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return identify(header.substring(7));
    }

    private JwtVerifier verifier(LangoSettings.Jwt settings) {
        JwtVerifier current = jwt;
        if (current == null) {
            current = new JwtVerifier(settings);
            jwt = current;
        }
        return current;
    }
}
