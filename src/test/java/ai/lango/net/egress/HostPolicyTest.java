package ai.lango.net.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.HostRule;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostPolicyTest {

    /** Names resolve as in this table; addresses are themselves. */
    private static final Map<String, String> DNS = Map.of(
            "example.com", "93.184.215.14",
            "localhost", "127.0.0.1",
            "rebind.example", "127.0.0.1",
            "metadata.example", "169.254.169.254",
            "intranet.example.com", "10.1.2.3",
            "cdn.tracker.example", "198.51.100.7");

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String address = DNS.get(host);
        if (address != null) {
            return new InetAddress[] {InetAddress.getByName(address)};
        }
        if (host.matches("[0-9.]+") || host.contains(":")) {
            return new InetAddress[] {InetAddress.getByName(host)};
        }
        throw new UnknownHostException(host);
    }

    private static HostPolicy policy(List<String> allowed, List<String> blocked) {
        return new HostPolicy(allowed, blocked, HostPolicyTest::resolve);
    }

    private static final HostPolicy DEFAULT = policy(List.of(), List.of());

    @Test
    void publicHostsAreOpenedAndConnectedToTheAddressChecked() throws Exception {
        HostPolicy.Verdict verdict = DEFAULT.check("https://example.com/path?q=1");
        assertTrue(verdict.allowed());
        assertEquals(InetAddress.getByName("93.184.215.14"), verdict.address());
    }

    @Test
    void onlyHttpAndHttpsAreOpened() {
        for (String url : List.of("file:///etc/passwd", "ftp://example.com/", "javascript:alert(1)", "chrome://settings",
                "data:text/html,hi", "example.com")) {
            assertFalse(DEFAULT.check(url).allowed(), url);
        }
    }

    @Test
    void theServerItselfAndItsNetworksAreRefused() {
        for (String url : List.of("http://127.0.0.1:9080/api/admin/users", "http://localhost:9080/", "http://[::1]/",
                "http://0.0.0.0:9080/", "http://10.0.0.5/", "http://192.168.1.1/", "http://172.16.0.1/",
                "http://100.64.0.1/", "http://[fd00::1]/", "http://[::ffff:127.0.0.1]/", "http://rebind.example/")) {
            HostPolicy.Verdict verdict = DEFAULT.check(url);
            assertFalse(verdict.allowed(), url);
            assertTrue(verdict.refusal().contains("lango.tools.browser.allowed-hosts"), verdict.refusal());
        }
    }

    @Test
    void ipv6FormsThatEmbedAnInternalIpv4AddressAreRefusedAsThatAddress() {
        for (String url : List.of("http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::127.0.0.1]/",
                "http://[::7f00:1]/", "http://[64:ff9b::127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/",
                "http://[64:ff9b:1::10.0.0.1]/", "http://[2002:7f00:1::]/", "http://[2002:a9fe:a9fe::1]/",
                "http://[::ffff:169.254.169.254]/", "http://[::ffff:10.1.2.3]/", "http://[::ffff:0:7f00:1]/",
                "http://[::ffff:0:127.0.0.1]/", "http://[::ffff:0:a9fe:a9fe]/")) {
            HostPolicy.Verdict verdict = DEFAULT.check(url);
            assertFalse(verdict.allowed(), url);
        }
        assertTrue(DEFAULT.check("http://[::ffff:93.184.215.14]/").allowed(), "a public IPv4 address in IPv6 form stays open");
        assertTrue(DEFAULT.check("http://[::ffff:0:5db8:d70e]/").allowed(), "so does one in the translated form");
        assertTrue(DEFAULT.check("http://[2606:2800:220:1::]/").allowed());
    }

    @Test
    void theIetfProtocolAndDocumentationNetworksAreRefused() {
        for (String url : List.of("http://192.0.0.8/", "http://192.0.0.170/", "http://192.0.2.1/", "http://[::ffff:192.0.2.10]/")) {
            assertFalse(DEFAULT.check(url).allowed(), url);
        }
    }

    @Test
    void cloudMetadataIsRefusedByAddressAndByAName() {
        HostPolicy.Verdict direct = DEFAULT.check("http://169.254.169.254/latest/meta-data/");
        assertFalse(direct.allowed());
        assertTrue(direct.refusal().contains("link-local"), direct.refusal());
        assertFalse(DEFAULT.check("http://metadata.example/").allowed());
    }

    @Test
    void anAllowedHostWithAPortOpensOnlyThatPort() {
        HostPolicy policy = policy(List.of("127.0.0.1:8123"), List.of());
        assertTrue(policy.check("http://127.0.0.1:8123/page").allowed());
        assertFalse(policy.check("http://127.0.0.1:9080/api/admin/users").allowed());
        assertFalse(policy.check("http://127.0.0.1/").allowed());
    }

    @Test
    void anAllowedNameOpensItsPrivateAddress() {
        HostPolicy policy = policy(List.of("intranet.example.com"), List.of());
        assertTrue(policy.check("http://intranet.example.com/wiki").allowed());
        assertFalse(policy.check("http://10.1.2.3/").allowed());
    }

    @Test
    void blockedHostsAreRefusedEvenWhenPublic() {
        HostPolicy policy = policy(List.of(), List.of("*.tracker.example", "93.184.215.14"));
        HostPolicy.Verdict byDomain = policy.check("https://cdn.tracker.example/pixel.gif");
        assertFalse(byDomain.allowed());
        assertTrue(byDomain.refusal().contains("blocked-hosts"), byDomain.refusal());
        assertFalse(policy.check("https://example.com/").allowed(), "a name resolving to a blocked address");
    }

    @Test
    void aNameThatDoesNotResolveIsRefused() {
        assertFalse(DEFAULT.check("http://nowhere.invalid/").allowed());
    }

    @Test
    void rulesThatAreNotHostsAreReported() {
        assertTrue(HostRule.problem("example.com:99999").isPresent());
        assertTrue(HostRule.problem("http://example.com").isPresent());
        assertTrue(HostRule.problem("exa*mple.com").isPresent());
        assertTrue(HostRule.problem("[::1]:8080").isEmpty());
        assertTrue(HostRule.problem("*.example.com").isEmpty());
    }
}
