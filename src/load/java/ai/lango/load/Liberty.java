package ai.lango.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A Liberty server started with {@code bin/server start} in an environment of its own, stopped on close. */
final class Liberty implements AutoCloseable {

    private final Path wlp;
    private final String server;

    private Liberty(Path wlp, String server) {
        this.wlp = wlp;
        this.server = server;
    }

    static Liberty start(Path wlp, String server, Map<String, String> environment) throws Exception {
        ProcessBuilder start = new ProcessBuilder(wlp.resolve("bin/server").toString(), "start", server).inheritIO();
        start.environment().putAll(environment);
        int exit = start.start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("server start " + server + " exited with " + exit);
        }
        return new Liberty(wlp, server);
    }

    long rssKb() {
        try {
            return rssKb(Long.parseLong(Files.readString(wlp.resolve("usr/servers/.pid/" + server + ".pid")).trim()));
        } catch (IOException e) {
            return -1;
        }
    }

    /** VmRSS of a process, in KiB; -1 where /proc cannot tell. */
    static long rssKb(long pid) {
        try {
            List<String> status = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
            return status.stream().filter(line -> line.startsWith("VmRSS:"))
                    .map(line -> Long.parseLong(line.replaceAll("[^0-9]", ""))).findFirst().orElse(-1L);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder(wlp.resolve("bin/server").toString(), "stop", server).inheritIO().start().waitFor();
    }
}
