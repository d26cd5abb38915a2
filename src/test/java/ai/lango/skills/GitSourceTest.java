package ai.lango.skills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class GitSourceTest {

    @Test
    void gitConnectsToTheAddressThatWasCheckedNotToANameResolvedAgain() throws Exception {
        InetAddress checked = InetAddress.getByName("93.184.215.14");
        GitSource ssh = GitSource.parse("ssh://git@example.org:2222/team/skills.git").orElseThrow();
        assertEquals("example.org", ssh.host());
        assertEquals(2222, ssh.port());
        assertEquals("ssh://git@93.184.215.14:2222/team/skills.git", ssh.towards(checked));
        assertEquals("example.org", ssh.hostKeyAlias(), "the host key is still checked under the name");

        GitSource scp = GitSource.parse("git@example.org:team/skills.git").orElseThrow();
        assertEquals(GitSource.Kind.SCP, scp.kind());
        assertEquals(22, scp.port());
        assertEquals("git@93.184.215.14:team/skills.git", scp.towards(checked));
        assertEquals("git@[2606:2800:220:1:0:0:0:0]:team/skills.git",
                scp.towards(InetAddress.getByName("2606:2800:220:1::")));

        GitSource git = GitSource.parse("git://example.org/skills.git").orElseThrow();
        assertEquals(9418, git.port());
        assertEquals("git://93.184.215.14:9418/skills.git", git.towards(checked));

        GitSource https = GitSource.parse("https://example.org/team/skills.git").orElseThrow();
        assertEquals(443, https.port());
        assertEquals("https://example.org:443/team/skills.git", https.towards(checked), "https keeps its name, for TLS; its proxy checks");
    }

    @Test
    void anInternalHostInAnyFormOfGitUrlIsTheHostThatIsChecked() {
        assertEquals("127.0.0.1", GitSource.parse("git://127.0.0.1/x.git").orElseThrow().host());
        assertEquals("::1", GitSource.parse("ssh://[::1]/x.git").orElseThrow().host());
        assertEquals("::1", GitSource.parse("git@[::1]:x.git").orElseThrow().host());
        assertEquals("localhost", GitSource.parse("localhost:x.git").orElseThrow().host());
        assertEquals("169.254.169.254", GitSource.parse("https://169.254.169.254/latest.git").orElseThrow().host());
    }

    @Test
    void whatIsNoGitUrlGitCouldFetchIsNotParsed() {
        for (String source : new String[] {"http://example.org/x.git", "file:///srv/x.git", "/srv/x.git", "ext::sh -c touch% /tmp/pwn",
                "git@exa mple.org:x.git", "https://example.org"}) {
            assertTrue(GitSource.parse(source).isEmpty(), source);
        }
    }
}
