package ai.lango.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The default embedding model: in the server, and with no network at all. */
class LocalEmbedderTest {

    private static final Path CACHE = Path.of("target", "djl-cache");

    @Test
    void aParaphraseIsCloserThanUnrelatedText() {
        LocalEmbedder embedder = new LocalEmbedder(CACHE, null);
        List<float[]> v = embedder.embed(List.of("The deploy branch is release/2.x.",
                "Which branch do we ship production from?", "Bananas are rich in potassium."));
        assertEquals(384, v.get(0).length);
        assertEquals(1.0, Vectors.dot(v.get(0), v.get(0)), 1e-4);
        double related = Vectors.dot(v.get(0), v.get(1));
        double unrelated = Vectors.dot(v.get(0), v.get(2));
        assertTrue(related > Retrieval.RELATED && unrelated < Retrieval.RELATED,
                "related " + related + ", unrelated " + unrelated);
    }

    /** Runs {@link Probe} in a child JVM inside a network namespace of its own, which has no interface but loopback (down). */
    @Test
    void embedsWithNoNetworkAtAll() throws IOException, InterruptedException {
        assumeTrue(canRunWithoutNetwork(), "unshare -n is not permitted here");
        List<String> command = new ArrayList<>(List.of("unshare", "-n", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Probe.class.getName(), CACHE.toAbsolutePath().toString()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("no network; dimensions 384"), output);
    }

    private static boolean canRunWithoutNetwork() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("unshare", "-n", "true").start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Proves it has no network (a connection to a public address fails at once), then embeds. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("1.1.1.1", 443), 2000);
                System.out.println("network reachable");
                System.exit(2);
            } catch (IOException expected) {
                // no route: as intended
            }
            float[] v = new LocalEmbedder(Path.of(args[0]), null).embed(List.of("offline")).get(0);
            System.out.println("no network; dimensions " + v.length);
        }
    }
}
