package ai.lango.security;

import ai.lango.config.Ids;
import ai.lango.config.LangoSettings;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.MalformedURLException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * JWTs from the team's identity provider, as MicroProfile JWT reads them: signed (RSA or EC, never
 * "none" or a shared secret) by the configured key or a key of the JWKS, issued by the configured
 * issuer, for the configured audience, not expired; the user is the {@code upn} claim (else {@code
 * preferred_username}, else {@code sub}), an administrator when {@code groups} holds the admin group.
 */
public final class JwtVerifier {

    private static final Set<JWSAlgorithm> ACCEPTED = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final String adminGroup;

    public JwtVerifier(LangoSettings.Jwt settings) {
        JWKSource<SecurityContext> keys;
        try {
            keys = settings.jwksUrl().isPresent()
                    ? JWKSourceBuilder.create(settings.jwksUrl().get().toURL()).build()
                    : new ImmutableJWKSet<>(keySet(settings.publicKey().orElseThrow()));
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("lango.auth.jwt.jwks-url is not a URL", e);
        }
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ACCEPTED, keys));
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(settings.audience().map(Set::of).orElse(null),
                new JWTClaimsSet.Builder().issuer(settings.issuer()).build(), Set.of("exp"), null));
        this.adminGroup = settings.adminGroup();
    }

    /** A valid JWT: whose it is, and when it expires. */
    public record Verified(Identity identity, java.time.Instant expires) {
    }

    /** Whose JWT this is, and until when, when it is a valid one. */
    public Optional<Verified> verify(String token) {
        if (token == null || token.chars().filter(c -> c == '.').count() != 2) {
            return Optional.empty();
        }
        try {
            JWTClaimsSet claims = processor.process(token, null);
            String user = first(claims, "upn", "preferred_username", "sub");
            // A JWT never names the operator's own users: their sessions are the operator's.
            if (user == null || Ids.problem("the JWT's user", user).isPresent() || Identity.reserved(user)) {
                return Optional.empty();
            }
            List<String> groups = claims.getStringListClaim("groups");
            return Optional.of(new Verified(Identity.jwt(user, groups != null && groups.contains(adminGroup)),
                    claims.getExpirationTime().toInstant()));
        } catch (ParseException | BadJOSEException | JOSEException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String first(JWTClaimsSet claims, String... names) throws ParseException {
        for (String name : names) {
            String value = claims.getStringClaim(name);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    /** A PEM public key (RSA or EC) or a JWK set as JSON. */
    static JWKSet keySet(String configured) {
        String text = configured.strip();
        try {
            if (text.startsWith("{")) {
                return text.contains("\"keys\"") ? JWKSet.parse(text) : new JWKSet(JWK.parse(text));
            }
            byte[] der = Base64.getMimeDecoder().decode(text.replaceAll("-----[A-Z ]+-----", ""));
            PublicKey key;
            try {
                key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
            } catch (java.security.spec.InvalidKeySpecException notRsa) {
                key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
            }
            JWK jwk = key instanceof RSAPublicKey rsa ? new RSAKey.Builder(rsa).build()
                    : new ECKey.Builder(Curve.forECParameterSpec(((ECPublicKey) key).getParams()), (ECPublicKey) key).build();
            return new JWKSet(jwk);
        } catch (ParseException | java.security.GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("lango.auth.jwt.public-key is neither a PEM public key nor a JWK set", e);
        }
    }
}
