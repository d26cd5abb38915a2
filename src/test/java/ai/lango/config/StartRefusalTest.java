package ai.lango.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A refused start is told on the console of the command that started the server in the background, and only there. */
class StartRefusalTest {

    private static final String CONSOLE_LOG = "/srv/wlp/usr/servers/lango/logs/console.log";

    @Test
    void theServerStartScriptWhoseOutputIsNotOursIsTold() {
        assertTrue(StartRefusal.startedInTheBackgroundBy("/bin/sh /srv/wlp/bin/server start lango", CONSOLE_LOG, "pipe:[4711]"),
                "mvn liberty:start runs server start with its output on a pipe");
        assertTrue(StartRefusal.startedInTheBackgroundBy("/bin/sh /srv/wlp/bin/server start lango --clean", CONSOLE_LOG,
                "/dev/pts/0"), "server start in a terminal");
    }

    @Test
    void aForegroundRunOrAnotherParentIsNot() {
        assertFalse(StartRefusal.startedInTheBackgroundBy("/bin/sh /srv/wlp/bin/server run lango", "/dev/pts/0", "/dev/pts/0"),
                "server run (mvn liberty:run): the console has the log line already");
        assertFalse(StartRefusal.startedInTheBackgroundBy("/bin/sh /srv/wlp/bin/server start lango", "pipe:[1]", "pipe:[1]"),
                "one output for both: the line is there already");
        assertFalse(StartRefusal.startedInTheBackgroundBy("/sbin/init", CONSOLE_LOG, "/dev/console"), "a parent that is not Liberty's");
        assertFalse(StartRefusal.startedInTheBackgroundBy("/bin/sh /srv/wlp/bin/server status lango", CONSOLE_LOG, "pipe:[1]"));
    }
}
