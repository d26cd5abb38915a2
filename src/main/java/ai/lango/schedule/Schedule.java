package ai.lango.schedule;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;

/**
 * A user's schedule as stored: whose, which session, what message, when ({@link Timing}), whether it is paused, its next
 * and last fire, what its last fire did, and the fire a server claimed and has not yet seen started.
 */
public record Schedule(String id, String userId, String sessionKey, String message, String kind, String spec, String zone,
                       boolean paused, Optional<Instant> nextFire, Optional<Instant> lastFire, Optional<String> lastResult,
                       Instant created, Optional<Claim> claim) {

    /** A fire a server claimed: its due time, the server, and when the server last said it still holds it. */
    public record Claim(Instant fire, String server, Instant at) {
    }

    public Timing timing() {
        return Timing.stored(kind, spec, zone, created);
    }

    /** The next time it runs, as the API, the page and the tools show it: none while it is paused. */
    public Optional<Instant> upcoming() {
        return paused ? Optional.empty() : nextFire;
    }

    public ZoneId zoneId() {
        return ZoneId.of(zone);
    }

    /** What a fire's turn is known by in lango_turns (its reference): the schedule and the fire's due time. */
    public static String reference(String scheduleId, Instant fire) {
        return "schedule:" + scheduleId + "@" + fire.toEpochMilli();
    }
}
