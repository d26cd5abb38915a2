package ai.lango.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotasTest {

    private final AtomicLong now = new AtomicLong(10 * 60_000 + 15_000);
    private static final Identity ANN = Identity.user("ann", false);
    private static final Identity BOB = Identity.user("bob", false);
    private static final Identity ADMIN = Identity.user("root", true);

    private Quotas quotas(int sessions, int requests, int turns) {
        Quotas quotas = new Quotas();
        quotas.access = TestSettings.of(Path.of("/tmp/lango"), "lango.auth.token", "operator-token",
                "lango.quota.sessions-per-user", String.valueOf(sessions), "lango.quota.requests-per-minute", String.valueOf(requests),
                "lango.quota.concurrent-turns", String.valueOf(turns), "lango.quota.session-state-max", "1KiB").access();
        quotas.clock = now::get;
        return quotas;
    }

    @Test
    void requestsOverTheMinutesLimitWaitForTheNextMinuteAndEachUserCountsAlone() {
        Quotas quotas = quotas(0, 3, 0);
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.empty(), quotas.request(ANN));
        }
        assertEquals(Optional.of(Duration.ofSeconds(45)), quotas.request(ANN), "the minute started 15 s ago");
        assertEquals(Optional.empty(), quotas.request(BOB));
        now.addAndGet(45_000);
        assertEquals(Optional.empty(), quotas.request(ANN), "a new minute");
    }

    @Test
    void aUserRunsAtMostTheirConcurrentTurnsAndAClosedPermitFreesItsPlaceOnce() {
        Quotas quotas = quotas(0, 0, 2);
        Quotas.Permit first = quotas.turn(ANN).orElseThrow();
        Quotas.Permit second = quotas.turn(ANN).orElseThrow();
        assertTrue(quotas.turn(ANN).isEmpty());
        assertTrue(quotas.turn(BOB).isPresent());
        first.close();
        first.close();
        assertTrue(quotas.turn(ANN).isPresent());
        assertTrue(quotas.turn(ANN).isEmpty(), "closing twice freed one place only");
        second.close();
    }

    @Test
    void administratorsAndZeroLimitsAreUnlimited() {
        Quotas quotas = quotas(1, 1, 1);
        for (int i = 0; i < 10; i++) {
            assertEquals(Optional.empty(), quotas.request(ADMIN));
            assertTrue(quotas.turn(ADMIN).isPresent());
        }
        assertTrue(quotas.maySessionBeAdded(ADMIN, 5));
        assertTrue(quotas.mayStateBe(ADMIN, 1 << 20));
        assertFalse(quotas.maySessionBeAdded(ANN, 1));
        assertTrue(quotas.maySessionBeAdded(ANN, 0));
        assertFalse(quotas.mayStateBe(ANN, 1025));
        Quotas none = quotas(0, 0, 0);
        assertTrue(none.maySessionBeAdded(ANN, 1_000_000));
        for (int i = 0; i < 10; i++) {
            assertEquals(Optional.empty(), none.request(ANN));
            assertTrue(none.turn(ANN).isPresent());
        }
    }
}
