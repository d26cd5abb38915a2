package ai.lango.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimingTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Duration MIN = Duration.ofMinutes(1);

    private static Timing.InvalidSchedule invalid(String cron, String every, String at, String zone, Duration min) {
        return assertThrows(Timing.InvalidSchedule.class, () -> Timing.of(cron, every, at, zone, UTC, min, NOW));
    }

    @Test
    void everyCountsFromItsCreationOnAGrid() {
        Timing every = Timing.of(null, "PT15M", null, null, UTC, MIN, NOW);
        assertEquals(Optional.of(Instant.parse("2030-01-01T10:15:00Z")), every.next(NOW));
        assertEquals(Optional.of(Instant.parse("2030-01-01T10:30:00Z")), every.next(Instant.parse("2030-01-01T10:15:00Z")));
        // after a downtime: the first time of the grid after now, not each one missed
        assertEquals(Optional.of(Instant.parse("2030-01-01T13:15:00Z")), every.next(Instant.parse("2030-01-01T13:07:00Z")));
    }

    @Test
    void atFiresOnceThenNever() {
        Timing at = Timing.of(null, null, "2030-01-02T09:00:00Z", null, UTC, MIN, NOW);
        assertEquals(Optional.of(Instant.parse("2030-01-02T09:00:00Z")), at.next(NOW));
        assertEquals(Optional.empty(), at.next(Instant.parse("2030-01-02T09:00:00Z")));
        assertEquals(Instant.parse("2030-01-02T08:00:00Z"), ((Timing.At) Timing.of(null, null, "2030-01-02T09:00:00+01:00", null,
                UTC, MIN, NOW)).at(), "an offset is accepted");
    }

    @Test
    void cronInTheNamedZoneOrTheDefault() {
        Timing berlin = Timing.of("0 9 * * *", null, null, "Europe/Berlin", UTC, MIN, NOW);
        assertEquals(Optional.of(Instant.parse("2030-01-02T08:00:00Z")), berlin.next(NOW));
        Timing utc = Timing.of("0 9 * * *", null, null, null, UTC, MIN, NOW);
        assertEquals(Optional.of(Instant.parse("2030-01-02T09:00:00Z")), utc.next(NOW));
    }

    @Test
    void storedTimingIsTheSameAsMade() {
        Timing made = Timing.of(null, "PT2H", null, null, UTC, MIN, NOW);
        assertEquals(made.next(NOW.plusSeconds(4000)), Timing.stored(made.kind(), made.spec(), "UTC", NOW).next(NOW.plusSeconds(4000)));
        Timing cron = Timing.of("*/5 * * * *", null, null, "Asia/Tokyo", UTC, MIN, NOW);
        assertEquals(cron.next(NOW), Timing.stored("cron", cron.spec(), "Asia/Tokyo", NOW).next(NOW));
    }

    @Test
    void exactlyOneTimingIsGiven() {
        assertTrue(invalid(null, null, null, null, MIN).getMessage().contains("exactly one"));
        assertEquals("every", invalid("* * * * *", "PT1H", null, null, MIN).field());
    }

    @Test
    void invalidFieldsAreNamed() {
        assertEquals("cron", invalid("61 * * * *", null, null, null, MIN).field());
        assertEquals("every", invalid(null, "an hour", null, null, MIN).field());
        assertEquals("at", invalid(null, null, "tomorrow", null, MIN).field());
        assertEquals("at", invalid(null, null, "2020-01-01T00:00:00Z", null, MIN).field(), "in the past");
        assertEquals("zone", invalid("0 9 * * *", null, null, "Mars/Olympus", MIN).field());
    }

    @Test
    void theMinimumIntervalBoundsEveryAndCron() {
        assertEquals("every", invalid(null, "PT30S", null, null, MIN).field());
        assertEquals("cron", invalid("*/5 * * * *", null, null, null, Duration.ofMinutes(10)).field());
        assertEquals("cron", invalid("0,5 9 * * *", null, null, null, Duration.ofMinutes(10)).field(), "two minutes apart at 9 only");
        Timing.of("0 9 * * *", null, null, null, UTC, Duration.ofHours(23), NOW);
        Timing.of(null, "PT2S", null, null, UTC, Duration.ofSeconds(1), NOW);
    }

    @Test
    void aFireRunsWithinTheGraceAndOnceForAllMissed() {
        Timing every = Timing.of(null, "PT10M", null, null, UTC, MIN, NOW);
        Instant due = Instant.parse("2030-01-01T10:10:00Z");
        Due onTime = Due.of(every, due, due.plusMillis(300), Duration.ofHours(1));
        assertFalse(onTime.missed());
        assertEquals(Optional.of(Instant.parse("2030-01-01T10:20:00Z")), onTime.following());
        // the servers were down from 10:15 to 10:55: the fire due 10:20 runs once, the next is 11:00 (not 10:30)
        Due late = Due.of(every, Instant.parse("2030-01-01T10:20:00Z"), Instant.parse("2030-01-01T10:55:00Z"), Duration.ofHours(1));
        assertFalse(late.missed());
        assertEquals(Optional.of(Instant.parse("2030-01-01T11:00:00Z")), late.following());
        // down for longer than the grace: skipped, and the schedule goes on at its next time
        Due missed = Due.of(every, Instant.parse("2030-01-01T10:20:00Z"), Instant.parse("2030-01-01T12:25:00Z"), Duration.ofHours(1));
        assertTrue(missed.missed());
        assertEquals(Optional.of(Instant.parse("2030-01-01T12:30:00Z")), missed.following());
        Timing at = Timing.of(null, null, "2030-01-01T11:00:00Z", null, UTC, MIN, NOW);
        assertEquals(Optional.empty(), Due.of(at, Instant.parse("2030-01-01T11:00:00Z"), Instant.parse("2030-01-01T11:00:01Z"),
                Duration.ofHours(1)).following());
    }
}
