package ai.lango.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The thresholds of the observer, the reflector and meta-reflection: at the threshold, not only above it. */
class MemoryTriggersTest {

    private final MemoryTriggers defaults = MemoryTriggers.of(ai.lango.config.TestSettings.defaults(java.nio.file.Path.of("/tmp/lango")).memory());

    @Test
    void observerRunsWhenUnobservedMessagesReachTheThreshold() {
        assertTrue(defaults.observe(1000));
        assertTrue(defaults.observe(1500));
    }

    @Test
    void observerWaitsJustBelowTheThreshold() {
        assertFalse(defaults.observe(999));
    }

    @Test
    void reflectorRunsWhenUnreflectedObservationsReachTheThreshold() {
        assertTrue(defaults.reflect(2000));
        assertFalse(defaults.reflect(1999));
    }

    @Test
    void metaReflectionRunsAtFiveReflections() {
        assertTrue(defaults.metaReflect(5));
        assertFalse(defaults.metaReflect(4));
    }

    @Test
    void metaReflectionThresholdOfZeroOrLessMeansFive() {
        assertEquals(5, new MemoryTriggers(1000, 2000, 0).metaReflections());
        assertEquals(5, new MemoryTriggers(1000, 2000, -3).metaReflections());
        assertEquals(3, new MemoryTriggers(1000, 2000, 3).metaReflections());
    }
}
