package ai.lango.mcp;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run in a JVM of its own with a small heap by {@link McpSessionTest}: a server's 100 MB answer must end the
 * connection without the transport ever holding it, so this JVM must not run out of memory. Prints the failure.
 */
public final class HugeAnswerProbe {

    private HugeAnswerProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path script = Path.of(args[1]);
        AtomicReference<String> ended = new AtomicReference<>();
        McpTransport stdio = new StdioTransport("misbehaving", List.of(args[0], script.toString(), "huge"),
                Map.of("PATH", "/usr/bin:/bin"), script.getParent());
        try (McpSession session = new McpSession("misbehaving", stdio, McpServerEntry.Elicitation.DECLINE, new McpSession.Listener() {
            @Override
            public void toolsChanged() {
            }

            @Override
            public void ended(String why) {
                ended.set(why);
            }
        })) {
            session.initialize(Duration.ofSeconds(10));
            try {
                session.callTool("odd", Map.of(), Duration.ofSeconds(30), null);
                System.out.println("answered");
            } catch (java.io.IOException expected) {
                System.out.println("failed: " + expected.getMessage());
            }
        }
        System.out.println("ended: " + ended.get());
        System.exit(0);
    }
}
