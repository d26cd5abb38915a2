package ai.lango.masking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MaskedLogsTest {

    private static final String VALUE = "ghp_0123456789abcdef";

    @AfterEach
    void forget() {
        SecretMask.stored(Map.of());
    }

    @Test
    void aSecretInALogMessageItsParametersOrAnExceptionIsMaskedBeforeAnyHandler() {
        SecretMask.stored(Map.of(VALUE, new SecretMask.Stored("github", "alice", false, java.util.Set.of())));
        Logger logger = MaskedLogs.of(MaskedLogsTest.class);
        List<String> written = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                StringWriter trace = new StringWriter();
                if (record.getThrown() != null) {
                    record.getThrown().printStackTrace(new PrintWriter(trace));
                }
                written.add(new SimpleFormatter().formatMessage(record) + "\n" + trace);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            logger.warning("the token " + VALUE + " was refused");
            logger.log(Level.WARNING, "parameter {0}", VALUE);
            logger.info(() -> "supplied " + VALUE);
            logger.log(Level.SEVERE, "failed", new IllegalStateException("wraps", new RuntimeException("key=" + VALUE)));
        } finally {
            logger.removeHandler(capture);
        }
        assertEquals(4, written.size());
        assertTrue(written.get(0).startsWith("the token [SECRET:github] was refused"), written.get(0));
        assertTrue(written.get(1).startsWith("parameter [SECRET:github]"), written.get(1));
        assertTrue(written.get(3).contains("key=[SECRET:github]") && written.get(3).contains("MaskedLogsTest"), written.get(3));
        written.forEach(line -> assertFalse(line.contains(VALUE), line));
    }

    @Test
    void aLineWrittenDuringATurnNamesItsTraceAndIsStillMasked() {
        SecretMask.stored(Map.of(VALUE, new SecretMask.Stored("github", "alice", false, java.util.Set.of())));
        Logger logger = MaskedLogs.of(MaskedLogsTest.class);
        List<String> written = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                written.add(new SimpleFormatter().formatMessage(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        String[] trace = {"4bf92f3577b34da6a3ce929d0e0e4736"};
        MaskedLogs.tagWith(() -> trace[0]);
        try {
            logger.log(Level.WARNING, "a tool failed with {0}", VALUE);
            trace[0] = null; // outside a turn
            logger.info("between turns");
        } finally {
            MaskedLogs.tagWith(() -> null);
            logger.removeHandler(capture);
        }
        assertEquals("a tool failed with [SECRET:github] [trace_id=4bf92f3577b34da6a3ce929d0e0e4736]", written.get(0));
        assertEquals("between turns", written.get(1));
    }
}
