package ai.lango.api.access;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AccessGuardTest {

    private static AccessGuard guard(String token, String... origins) {
        return new AccessGuard(TestSettings.of(Path.of("/tmp/lango"), "lango.auth.token", token, "lango.http.allowed-origins",
                origins.length == 0 ? null : String.join(",", origins)).access());
    }

    @Test
    void sameOriginUpgradeIsAllowed() {
        assertTrue(guard(null).originAllowed("http://localhost:9080", "localhost:9080"));
        assertTrue(guard(null).originAllowed("https://chat.example.com", "chat.example.com"));
        assertTrue(guard(null).originAllowed(null, "localhost:9080"), "non-browser clients send no Origin");
    }

    @Test
    void crossOriginUpgradeIsRefusedUnlessConfigured() {
        assertFalse(guard(null).originAllowed("http://evil.example", "localhost:9080"));
        assertFalse(guard(null).originAllowed("http://localhost:9081", "localhost:9080"));
        assertTrue(guard(null, "http://evil.example").originAllowed("http://evil.example/", "localhost:9080"));
        assertTrue(guard(null, "*").originAllowed("http://anything.example", "localhost:9080"));
    }

    @Test
    void aRequestFromAnotherSitesPageIsRefusedByItsOriginOrElseItsFetchSite() {
        AccessGuard guard = guard(null);
        assertFalse(guard.siteAllowed("https://evil.example", "cross-site", "localhost:9080"));
        assertFalse(guard.siteAllowed("null", null, "localhost:9080"), "a sandboxed page or a file sends Origin: null");
        assertFalse(guard.siteAllowed(null, "cross-site", "localhost:9080"));
        assertFalse(guard.siteAllowed(null, "same-site", "localhost:9080"), "another port of localhost is another origin");
        assertTrue(guard.siteAllowed("http://localhost:9080", "same-origin", "localhost:9080"));
        assertTrue(guard.siteAllowed(null, "same-origin", "localhost:9080"));
        assertTrue(guard.siteAllowed(null, "none", "localhost:9080"), "typed or bookmarked");
        assertTrue(guard.siteAllowed(null, null, "localhost:9080"), "not a browser: curl, an SDK");
        assertTrue(guard(null, "https://chat.example.com").siteAllowed("https://chat.example.com", "cross-site", "localhost:9080"),
                "an origin the operator allowed");
    }

    private static AccessGuard hosts(String bound, String... allowed) {
        return new AccessGuard(TestSettings.of(Path.of("/tmp/lango"), "lango.http.allowed-hosts",
                allowed.length == 0 ? null : String.join(",", allowed)).access(), bound);
    }

    @Test
    void loopbackNamesAreTheHostsAnsweredByDefault() {
        AccessGuard guard = hosts("localhost");
        for (String host : new String[] {"localhost:9080", "LOCALHOST", "127.0.0.1:9080", "127.1.2.3", "[::1]:9080", "localhost.", null}) {
            assertTrue(guard.hostAllowed(host), String.valueOf(host));
        }
        for (String host : new String[] {"evil.example:9080", "localhost.evil.example", "127.0.0.1.evil.example", "10.0.0.5"}) {
            assertFalse(guard.hostAllowed(host), host);
        }
    }

    @Test
    void configuredNamesAndTheBoundInterfaceAreAnsweredToo() {
        assertTrue(hosts("0.0.0.0", "chat.example.com").hostAllowed("chat.example.com:443"));
        assertFalse(hosts("0.0.0.0", "chat.example.com").hostAllowed("0.0.0.0:9080"), "a wildcard bind names no host");
        assertTrue(hosts("192.0.2.10").hostAllowed("192.0.2.10:9080"));
        assertTrue(hosts("0.0.0.0", "*").hostAllowed("anything.example"));
    }
}
