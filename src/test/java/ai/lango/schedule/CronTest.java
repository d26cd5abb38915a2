package ai.lango.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class CronTest {

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant next(String cron, String after, ZoneId zone) {
        return Cron.parse(cron).next(ZonedDateTime.parse(after).toInstant(), zone).orElseThrow();
    }

    @Test
    void everyMinuteIsTheNextWholeMinute() {
        assertEquals(Instant.parse("2030-01-01T10:01:00Z"), next("* * * * *", "2030-01-01T10:00:00Z", UTC));
        assertEquals(Instant.parse("2030-01-01T10:01:00Z"), next("* * * * *", "2030-01-01T10:00:59.999Z", UTC));
    }

    @Test
    void weekdaysAtSevenInTheZone() {
        // Friday 2030-01-04 07:00 Berlin has passed: the next is Monday 07:00 Berlin (06:00 UTC in winter).
        assertEquals(Instant.parse("2030-01-07T06:00:00Z"), next("0 7 * * MON-FRI", "2030-01-04T07:00:00+01:00", BERLIN));
        assertEquals(Instant.parse("2030-01-07T06:00:00Z"), next("0 7 * * 1-5", "2030-01-05T12:00:00+01:00", BERLIN));
    }

    @Test
    void stepsListsAndRanges() {
        assertEquals(Instant.parse("2030-01-01T10:15:00Z"), next("*/15 * * * *", "2030-01-01T10:00:00Z", UTC));
        assertEquals(Instant.parse("2030-01-01T10:05:00Z"), next("5,35 * * * *", "2030-01-01T10:00:00Z", UTC));
        assertEquals(Instant.parse("2030-01-01T10:35:00Z"), next("5,35 * * * *", "2030-01-01T10:05:00Z", UTC));
        assertEquals(Instant.parse("2030-01-01T12:00:00Z"), next("0 8-18/4 * * *", "2030-01-01T08:00:00Z", UTC));
        assertEquals(Instant.parse("2030-01-01T10:50:00Z"), next("20/30 * * * *", "2030-01-01T10:20:00Z", UTC));
    }

    @Test
    void sundayIsZeroOrSeven() {
        // 2030-01-06 is a Sunday
        assertEquals(Instant.parse("2030-01-06T09:00:00Z"), next("0 9 * * 0", "2030-01-01T00:00:00Z", UTC));
        assertEquals(Instant.parse("2030-01-06T09:00:00Z"), next("0 9 * * 7", "2030-01-01T00:00:00Z", UTC));
        assertEquals(Instant.parse("2030-01-06T09:00:00Z"), next("0 9 * * SUN", "2030-01-01T00:00:00Z", UTC));
    }

    @Test
    void bothDayFieldsRestrictedMatchEither() {
        // the 15th or any Monday: Monday 2030-01-07 comes first
        assertEquals(Instant.parse("2030-01-07T00:00:00Z"), next("0 0 15 * MON", "2030-01-02T00:00:00Z", UTC));
        // the 15th alone
        assertEquals(Instant.parse("2030-01-15T00:00:00Z"), next("0 0 15 * *", "2030-01-02T00:00:00Z", UTC));
    }

    @Test
    void monthsByNameAndLeapDays() {
        assertEquals(Instant.parse("2030-03-01T00:00:00Z"), next("0 0 1 MAR *", "2030-01-01T00:00:00Z", UTC));
        assertEquals(Instant.parse("2032-02-29T00:00:00Z"), next("0 0 29 2 *", "2030-01-01T00:00:00Z", UTC));
    }

    @Test
    void aTimeSkippedByDaylightSavingFiresShiftedAndARepeatedOneOnce() {
        // Berlin springs forward on 2030-03-31 at 02:00 → 03:00: 02:30 does not exist that day.
        assertEquals(Instant.parse("2030-03-31T01:30:00Z"), next("30 2 * * *", "2030-03-30T12:00:00Z", BERLIN));
        // It falls back on 2030-10-27 at 03:00 → 02:00: 02:30 happens twice, fires at its first (CEST, 00:30 UTC).
        Instant first = next("30 2 * * *", "2030-10-26T12:00:00Z", BERLIN);
        assertEquals(Instant.parse("2030-10-27T00:30:00Z"), first);
        assertEquals(Instant.parse("2030-10-28T01:30:00Z"), Cron.parse("30 2 * * *").next(first, BERLIN).orElseThrow());
    }

    @Test
    void invalidExpressionsNameTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("* * * *")).getMessage().contains("five fields"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("60 * * * *")).getMessage().contains("minute"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 24 * * *")).getMessage().contains("hour"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 0 0 * *")).getMessage().contains("day of month"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 0 * FOO *")).getMessage().contains("month"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 0 * * 8")).getMessage().contains("day of week"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("5-1 * * * *")).getMessage().contains("backwards"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("*/0 * * * *")).getMessage().contains("minute"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 0 31 2 *")).getMessage().contains("never"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Cron.parse("1,,2 * * * *")).getMessage().contains("empty"));
    }
}
