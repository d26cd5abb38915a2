package ai.lango.config;

import ai.lango.masking.MaskedLogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Ending the whole server when listening would be wrong. Liberty opens its HTTP port by itself once
 * the applications have started, whether or not Lango's start succeeded: a refused configuration
 * alone would leave the port open, serving whatever Liberty serves without the application. So the
 * start never returns: the server process exits first, before the port is opened.
 */
public final class StartRefusal {

    private static final Logger LOG = MaskedLogs.of(StartRefusal.class);
    /** How long the log line is given to be written before the process ends. */
    private static final long HALT_AFTER_MILLIS = 500;

    private StartRefusal() {
    }

    /**
     * Logs why, then ends the server process with status 1; does not return. Halted, not exited: an
     * orderly stop (System.exit) while Liberty is still starting its features filed an FFDC report and
     * a stack trace beside the one line that matters, and nothing has started that needs stopping.
     */
    public static RuntimeException exit(String why) {
        String line = "Lango refuses to start, and the server stops without opening its port: " + why;
        LOG.severe(line);
        System.out.flush();
        System.err.flush();
        tellTheStartCommand(line);
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(HALT_AFTER_MILLIS); // the log line written out
            } catch (InterruptedException e) {
                // the process is ending anyway
            }
            Runtime.getRuntime().halt(1);
        }, "lango-refused-halt");
        halt.start();
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new InvalidConfigurationException(why);
    }

    /**
     * Whether a process other than this one listens on TCP {@code port} (any address). Read from
     * /proc: a listening socket whose inode is none of this process's file descriptors. False where
     * there is no /proc (the check is then skipped), and when only this server listens (an
     * application redeployed into a running server).
     */
    public static boolean anotherProcessListens(int port) {
        Set<String> listening = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (Stream<String> lines = Files.lines(Path.of(table))) {
                lines.skip(1).map(String::trim).map(l -> l.split("\\s+")).filter(f -> f.length > 9)
                        .filter(f -> f[3].equals("0A")) // LISTEN
                        .filter(f -> Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1), 16) == port)
                        .forEach(f -> listening.add(f[9]));
            } catch (IOException | RuntimeException e) {
                // no such table (no IPv6, or not Linux)
            }
        }
        if (listening.isEmpty()) {
            return false;
        }
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            Set<String> own = new HashSet<>();
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        own.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // closed meanwhile
                }
            });
            return !own.containsAll(listening);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Says {@code line} on the console of the command that started this server in the background ({@code server
     * start}, which {@code mvn liberty:start} runs): that command shows only "communication error … check server logs"
     * when the server ends while it starts, and this process's own output goes to console.log. Its parent, the
     * {@code server start} script, is still waiting for the start: the line goes to that script's standard output.
     * Nothing when the server runs in the foreground ({@code server run}, {@code mvn liberty:run}: the console has the
     * log line already) or was started otherwise; Linux's /proc only.
     */
    private static void tellTheStartCommand(String line) {
        try {
            ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
            if (parent == null) {
                return;
            }
            Path own = Path.of("/proc/self/fd/1");
            Path theirs = Path.of("/proc/" + parent.pid() + "/fd/1");
            if (!Files.exists(theirs) || !startedInTheBackgroundBy(parent.info().commandLine().orElse(""),
                    Files.readSymbolicLink(own).toString(), Files.readSymbolicLink(theirs).toString())) {
                return;
            }
            Files.writeString(theirs, "[ERROR   ] " + line + System.lineSeparator(), java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException | RuntimeException e) {
            // no console to tell: the log has the line
        }
    }

    /**
     * Whether a process whose parent runs {@code parentCommandLine} with its standard output at {@code parentOutput},
     * its own at {@code ownOutput}, was started in the background by Liberty's {@code server start}: then its output
     * is a file (console.log) other than the one the command's user reads.
     */
    static boolean startedInTheBackgroundBy(String parentCommandLine, String ownOutput, String parentOutput) {
        return parentCommandLine.matches(".*[/\\\\]bin[/\\\\]server start( .*)?") && !ownOutput.equals(parentOutput);
    }

    public static String portTaken(String host, int port) {
        return "a server already runs on port " + port + " (" + Keys.HTTP_PORT + "); this one would not get"
                + " the port. Stop that server first, or start this one on another port (LANGO_HTTP_PORT)."
                + (host.toLowerCase(Locale.ROOT).equals("localhost") ? "" : " Interface: " + host + ".");
    }
}
