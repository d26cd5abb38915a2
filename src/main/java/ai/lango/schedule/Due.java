package ai.lango.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a fire that came due at {@code due}, looked at {@code now}, does: it runs, or it was missed for longer than the
 * grace (lango.schedules.missed-grace) and is skipped; either way the schedule goes on at its first time after now — so
 * fires missed during a downtime run once, not once each.
 *
 * @param missed    whether the fire is skipped as missed
 * @param following the schedule's next fire after this one, empty when none comes (an at)
 */
public record Due(boolean missed, Optional<Instant> following) {

    public static Due of(Timing timing, Instant due, Instant now, Duration grace) {
        Instant from = due.isAfter(now) ? due : now;
        return new Due(due.isBefore(now.minus(grace)), timing.next(from));
    }
}
