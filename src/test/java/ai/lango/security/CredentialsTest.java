package ai.lango.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import ai.lango.fake.TestJwts;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who a credential names: the operator's token, a user's API token, a JWT of the identity provider; nobody otherwise. */
class CredentialsTest {

    private static final KeyPair KEYS = TestJwts.rsaKeys();
    private static final KeyPair OTHER_KEYS = TestJwts.rsaKeys();
    private static final String ISSUER = "https://login.example.com";

    static String pem(KeyPair keys) {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }

    /** A JWT signed with {@code keys}, as an identity provider issues it. */
    static String jwt(KeyPair keys, String issuer, String user, List<String> groups, Duration validFor) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).subject("id-" + user).claim("upn", user)
                .claim("groups", groups).audience("lango").expirationTime(new Date(System.currentTimeMillis() + validFor.toMillis()))
                .build();
        return TestJwts.signed(keys, claims);
    }

    private static final class Tokens extends UserTokenStore {
        final Map<String, Identity> issued;

        Tokens(Map<String, Identity> issued) {
            this.issued = issued;
        }

        @Override
        public Optional<Identity> identify(String token) {
            return Optional.ofNullable(issued.get(token));
        }

        @Override
        public boolean claimForJwt(String userId) {
            return issued.values().stream().noneMatch(user -> user.userId().equals(userId));
        }

        @Override
        public java.util.Set<String> stillIssued(java.util.Collection<String> hashes) {
            return issued.keySet().stream().map(UserTokenStore::hash).filter(hashes::contains)
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    private static Credentials credentials(String operatorToken, boolean jwt) {
        return credentials(operatorToken, jwt, false);
    }

    private static Credentials credentials(String operatorToken, boolean jwt, boolean link) {
        Credentials credentials = new Credentials();
        credentials.access = TestSettings.of(Path.of("/tmp/lango"), "lango.auth.token", operatorToken,
                "lango.auth.jwt.issuer", jwt ? ISSUER : null, "lango.auth.jwt.public-key", jwt ? pem(KEYS) : null,
                "lango.auth.jwt.audience", jwt ? "lango" : null, "lango.auth.jwt.link-token-users", String.valueOf(link)).access();
        credentials.users = new Tokens(new java.util.HashMap<>(Map.of("lango_ann-token", Identity.user("ann", false),
                "lango_root-token", Identity.user("root", true))));
        return credentials;
    }

    @Test
    void withoutAuthenticationEveryCallerIsTheOperator() {
        Credentials open = credentials(null, false);
        assertEquals(Optional.of(Identity.OPERATOR), open.fromAuthorization(null));
        assertEquals(Optional.of(Identity.OPERATOR), open.identify("lango_ann-token"), "a user's token changes nothing");
    }

    @Test
    void theOperatorsTokenIsTheOperatorAndNothingElseIsAnybody() {
        Credentials credentials = credentials("s3cret-operator", false);
        assertEquals(Optional.of(Identity.OPERATOR), credentials.fromAuthorization("Bearer s3cret-operator"));
        assertEquals(Optional.of(Identity.OPERATOR), credentials.fromAuthorization("bearer s3cret-operator"));
        assertEquals(Optional.empty(), credentials.fromAuthorization("Bearer wrong"));
        assertEquals(Optional.empty(), credentials.fromAuthorization("s3cret-operator"), "a bearer header, nothing else");
        assertEquals(Optional.empty(), credentials.fromAuthorization(null));
        assertEquals(Optional.empty(), credentials.identify(null));
    }

    @Test
    void aUsersApiTokenIsThatUser() {
        Credentials credentials = credentials("s3cret-operator", false);
        Identity ann = credentials.fromAuthorization("Bearer lango_ann-token").orElseThrow();
        assertEquals("ann", ann.userId());
        assertTrue(!ann.admin() && !ann.operator() && ann.mayActAs("ann") && !ann.mayActAs("bob"));
    }

    @Test
    void aJwtOfTheIdentityProviderIsItsUserAnAdministratorByGroup() throws Exception {
        Credentials credentials = credentials(null, true);
        Identity bob = credentials.identify(jwt(KEYS, ISSUER, "bob", List.of("staff"), Duration.ofMinutes(5))).orElseThrow();
        assertEquals(Identity.jwt("bob", false), bob);
        Identity carol = credentials.identify(jwt(KEYS, ISSUER, "carol", List.of("admin"), Duration.ofMinutes(5))).orElseThrow();
        assertEquals(Identity.jwt("carol", true), carol);
    }

    @Test
    void aJwtSignedByAnotherKeyFromAnotherIssuerExpiredOrUnsignedIsNobody() throws Exception {
        Credentials credentials = credentials(null, true);
        assertEquals(Optional.empty(), credentials.identify(jwt(OTHER_KEYS, ISSUER, "mallory", List.of("admin"), Duration.ofMinutes(5))));
        assertEquals(Optional.empty(), credentials.identify(jwt(KEYS, "https://evil.example", "mallory", List.of(), Duration.ofMinutes(5))));
        assertEquals(Optional.empty(), credentials.identify(jwt(KEYS, ISSUER, "mallory", List.of(), Duration.ofMinutes(-5))));
        String unsigned = new PlainJWT(new JWTClaimsSet.Builder().issuer(ISSUER).claim("upn", "mallory")
                .claim("groups", List.of("admin")).expirationTime(new Date(System.currentTimeMillis() + 60_000)).build()).serialize();
        assertEquals(Optional.empty(), credentials.identify(unsigned), "alg none is never accepted");
        assertEquals(Optional.empty(), credentials.identify(jwt(KEYS, ISSUER, "../etc", List.of(), Duration.ofMinutes(5))),
                "a user id that breaks the id rule");
        for (String operators : List.of(Identity.OPERATOR_USER, Identity.OPERATOR_A2A_USER)) {
            assertEquals(Optional.empty(), credentials.identify(jwt(KEYS, ISSUER, operators, List.of(), Duration.ofMinutes(5))),
                    "a JWT naming the operator's own user " + operators);
        }
    }

    @Test
    void aJwtWhoseUserHasTheNameOfATokenUserIsNotThatUserUnlessLinked() {
        String named = jwt(KEYS, ISSUER, "root", List.of(), Duration.ofMinutes(5));
        assertEquals(Optional.empty(), credentials(null, true).identify(named), "one name, one user");
        assertEquals(Optional.of(Identity.jwt("root", false)), credentials(null, true, true).identify(named),
                "linked: the same person, but an administrator only by the JWT's own groups");
    }

    @Test
    void aSocketsCredentialEndsWhenItsTokenIsRevokedOrItsJwtExpires() throws Exception {
        Credentials credentials = credentials("s3cret-operator", true);
        Credentials.Presented ann = credentials.authenticate("lango_ann-token").orElseThrow();
        Credentials.Presented jwt = credentials.authenticate(jwt(KEYS, ISSUER, "bob", List.of(), Duration.ofSeconds(2))).orElseThrow();
        Credentials.Presented operator = credentials.authenticate("s3cret-operator").orElseThrow();
        assertTrue(credentials.stillValid(ann) && credentials.stillValid(jwt) && credentials.stillValid(operator));

        ((Tokens) credentials.users).issued.remove("lango_ann-token");
        assertFalse(credentials.stillValid(ann), "revoked");
        Thread.sleep(2_100);
        assertFalse(credentials.stillValid(jwt), "expired");
        assertTrue(credentials.stillValid(operator), "the operator's token lasts as long as the configuration");
    }
}
