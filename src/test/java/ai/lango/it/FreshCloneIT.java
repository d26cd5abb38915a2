package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's one command on a fresh clone: the working tree's files (tracked and new, nothing
 * ignored) copied to target/fresh-clone, then {@code mvn liberty:run} as it stands, on port
 * it.http.port + 3. The dev UI answers; a second {@code mvn liberty:run} in the same clone says
 * that a server already runs on that port, fails, and leaves the first running.
 */
class FreshCloneIT {

    private static final int PORT = Integer.parseInt(System.getProperty("it.http.port", "19080")) + 3;
    private static final Path CLONE = Path.of("target", "fresh-clone").toAbsolutePath();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void devUiWorksAfterOneLibertyRunAndASecondRunLeavesTheFirstServerAlone() throws Exception {
        assumeTrue(Files.isDirectory(Path.of(".git")) || Files.isRegularFile(Path.of(".git")), "needs a git checkout");
        // The database plays no part: once, in the H2 run.
        org.junit.jupiter.api.Assumptions.assumeFalse("liberty-pg".equals(System.getProperty("arquillian.launch")));
        copyWorkingTree();
        Process first = mvnLibertyRun("fresh-clone-first.log");
        try {
            assertTrue(waitFor("dev-ui/", 600), "the dev UI answered after mvn liberty:run:\n" + tail("fresh-clone-first.log"));
            HttpResponse<String> page = get("dev-ui/");
            assertTrue(page.body().contains("<app-root>"), page.body());
            assertEquals(200, get("dev-ui/assets/config/runtime-config.json").statusCode());

            Process second = mvnLibertyRun("fresh-clone-second.log");
            assertTrue(second.waitFor(600, TimeUnit.SECONDS), "the second run ended");
            String output = Files.readString(Path.of("target", "fresh-clone-second.log"));
            assertNotEquals(0, second.exitValue(), output);
            assertTrue(output.contains("a server already runs on port " + PORT), output);

            assertEquals(200, get("dev-ui/").statusCode(), "the first server still serves");
            String log = Files.readString(CLONE.resolve("target/liberty/wlp/usr/servers/lango/logs/messages.log"));
            assertFalse(log.contains("CWWKZ0009I"), "the first server's application was never stopped:\n" + log);
            assertFalse(log.contains("CWWKZ0003I"), "nor redeployed");
            assertTrue(first.isAlive(), "the first mvn liberty:run still runs");
        } finally {
            new ProcessBuilder(CLONE.resolve("target/liberty/wlp/bin/server").toString(), "stop", "lango")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
            if (!first.waitFor(60, TimeUnit.SECONDS)) {
                first.destroyForcibly();
            }
        }
    }

    private void copyWorkingTree() throws Exception {
        if (Files.exists(CLONE)) {
            try (Stream<Path> old = Files.walk(CLONE)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Process list = new ProcessBuilder("git", "ls-files", "-co", "--exclude-standard").redirectErrorStream(true).start();
        String files = new String(list.getInputStream().readAllBytes());
        assertEquals(0, list.waitFor());
        for (String file : files.split("\n")) {
            Path source = Path.of(file);
            if (file.isBlank() || !Files.isRegularFile(source)) {
                continue; // deleted in the working tree
            }
            Path target = CLONE.resolve(file);
            Files.createDirectories(target.getParent());
            Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
    }

    private Process mvnLibertyRun(String log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("mvn", "-B", "liberty:run").directory(CLONE.toFile())
                .redirectErrorStream(true).redirectOutput(Path.of("target", log).toFile());
        builder.environment().put("LANGO_HTTP_PORT", String.valueOf(PORT));
        builder.environment().put("LANGO_DATA_DIR", CLONE.resolve("data").toString());
        builder.environment().remove("LANGO_TOOLS_WORKSPACE");
        builder.environment().remove("LANGO_AUTH_TOKEN");
        return builder.start();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + "/" + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean waitFor(String path, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                if (get(path).statusCode() == 200) {
                    return true;
                }
            } catch (Exception notYet) {
                // not listening yet
            }
            Thread.sleep(1_000);
        }
        return false;
    }

    private static String tail(String log) throws IOException {
        String text = Files.readString(Path.of("target", log));
        return text.substring(Math.max(0, text.length() - 4000));
    }
}
