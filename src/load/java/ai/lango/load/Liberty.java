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
        return rssKb(pid());
    }

    long cpuNanos() {
        return cpuNanos(pid());
    }

    long pid() {
        try {
            return Long.parseLong(Files.readString(wlp.resolve("usr/servers/.pid/" + server + ".pid")).trim());
        } catch (IOException e) {
            return -1;
        }
    }

    /** Clock ticks per second of /proc's CPU counters (USER_HZ: 100 on Linux for x86 and ARM). */
    private static final long TICKS_PER_SECOND = 100;

    /**
     * The CPU time a process used so far, user and system, all threads, in ns: fields 14 and 15 of
     * /proc/<pid>/stat (after the command's name, which may hold spaces); -1 where /proc cannot tell.
     */
    static long cpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields[0] is field 3 (state), so utime (14) and stime (15) are fields[11] and fields[12].
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * (1_000_000_000L / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
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
