package ai.lango.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When a schedule fires: a cron expression in a zone, every fixed duration (counted from the schedule's creation), or
 * once at an instant. Parsed from what a user gives, with an {@link InvalidSchedule} naming the field that is wrong.
 */
public sealed interface Timing {

    /** The kind as stored and shown: cron, every or at. */
    String kind();

    /** What the user gave, as stored: the expression, the ISO-8601 duration or the instant. */
    String spec();

    /** The first fire strictly after {@code after}; empty when there is none (an at that has passed). */
    Optional<Instant> next(Instant after);

    /** Cron fields in {@code zone}. */
    record CronTiming(Cron cron, ZoneId zone) implements Timing {
        public String kind() {
            return "cron";
        }

        public String spec() {
            return cron.toString();
        }

        public Optional<Instant> next(Instant after) {
            return cron.next(after, zone);
        }
    }

    /** Every {@code period}, on the grid that starts at {@code anchor} (the schedule's creation). */
    record Every(Duration period, Instant anchor) implements Timing {
        public String kind() {
            return "every";
        }

        public String spec() {
            return period.toString();
        }

        public Optional<Instant> next(Instant after) {
            if (after.isBefore(anchor)) {
                return Optional.of(anchor.plus(period));
            }
            long periods = Duration.between(anchor, after).toMillis() / period.toMillis() + 1;
            return Optional.of(anchor.plusMillis(periods * period.toMillis()));
        }
    }

    /** Once, at {@code at}. */
    record At(Instant at) implements Timing {
        public String kind() {
            return "at";
        }

        public String spec() {
            return at.toString();
        }

        public Optional<Instant> next(Instant after) {
            return at.isAfter(after) ? Optional.of(at) : Optional.empty();
        }
    }

    /** A field of a schedule that is not valid: its name (as in the request) and why. */
    final class InvalidSchedule extends IllegalArgumentException {
        private final String field;

        public InvalidSchedule(String field, String message) {
            super(message);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /**
     * The timing a user asked for: exactly one of {@code cron}, {@code every} and {@code at} (the others null or blank),
     * in {@code zone} (null or blank: {@code defaultZone}), no shorter between fires than {@code minInterval}; an every
     * counts from {@code anchor}.
     */
    static Timing of(String cron, String every, String at, String zone, ZoneId defaultZone, Duration minInterval, Instant anchor) {
        int given = (present(cron) ? 1 : 0) + (present(every) ? 1 : 0) + (present(at) ? 1 : 0);
        if (given != 1) {
            throw new InvalidSchedule(given == 0 ? "cron" : "every", "give exactly one of \"cron\" (five fields), \"every\""
                    + " (an ISO-8601 duration such as PT1H) and \"at\" (an instant such as 2030-01-01T09:00:00Z)");
        }
        ZoneId zoneId = zone(zone, defaultZone);
        if (present(cron)) {
            Cron parsed;
            try {
                parsed = Cron.parse(cron);
            } catch (IllegalArgumentException e) {
                throw new InvalidSchedule("cron", "\"cron\" is not a valid cron expression: " + e.getMessage());
            }
            CronTiming timing = new CronTiming(parsed, zoneId);
            Duration shortest = shortestGap(timing, anchor);
            if (shortest.compareTo(minInterval) < 0) {
                throw new InvalidSchedule("cron", "\"cron\" fires " + shortest + " apart at times; schedules may fire no more"
                        + " often than every " + minInterval + " (lango.schedules.min-interval)");
            }
            return timing;
        }
        if (present(every)) {
            Duration period;
            try {
                period = Duration.parse(every.strip().toUpperCase(java.util.Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new InvalidSchedule("every", "\"every\" is not an ISO-8601 duration such as PT15M or PT2H: \"" + every + "\"");
            }
            if (period.compareTo(minInterval) < 0) {
                throw new InvalidSchedule("every", "\"every\" must be at least " + minInterval
                        + " (lango.schedules.min-interval), not " + period);
            }
            return new Every(period, anchor);
        }
        Instant instant;
        try {
            instant = Instant.parse(at.strip());
        } catch (DateTimeParseException e) {
            try {
                instant = java.time.OffsetDateTime.parse(at.strip()).toInstant();
            } catch (DateTimeParseException again) {
                throw new InvalidSchedule("at", "\"at\" is not an instant such as 2030-01-01T09:00:00Z: \"" + at + "\"");
            }
        }
        if (!instant.isAfter(anchor)) {
            throw new InvalidSchedule("at", "\"at\" is in the past: " + instant);
        }
        return new At(instant);
    }

    /** The zone a user named (null or blank: {@code defaultZone}). */
    static ZoneId zone(String zone, ZoneId defaultZone) {
        if (!present(zone)) {
            return defaultZone;
        }
        try {
            return ZoneId.of(zone.strip());
        } catch (java.time.DateTimeException e) {
            throw new InvalidSchedule("zone", "\"zone\" is not an IANA time zone such as Europe/Berlin: \"" + zone + "\"");
        }
    }

    /** The timing stored as {@code kind}, {@code spec} and {@code zone} (an every counted from {@code anchor}). */
    static Timing stored(String kind, String spec, String zone, Instant anchor) {
        return switch (kind) {
            case "cron" -> new CronTiming(Cron.parse(spec), ZoneId.of(zone));
            case "every" -> new Every(Duration.parse(spec), anchor);
            case "at" -> new At(Instant.parse(spec));
            default -> throw new IllegalStateException("unknown schedule kind " + kind);
        };
    }

    /**
     * The shortest time between two fires of a cron timing: looked for among its fires over a year (at most a few
     * thousand), which covers every weekday, month and day of month it names.
     */
    static Duration shortestGap(Timing timing, Instant from) {
        Duration shortest = Duration.ofDays(366);
        Instant limit = from.plus(Duration.ofDays(366));
        Optional<Instant> previous = timing.next(from);
        for (int i = 0; i < 5000 && previous.isPresent() && previous.get().isBefore(limit); i++) {
            Optional<Instant> following = timing.next(previous.get());
            if (following.isEmpty()) {
                break;
            }
            Duration gap = Duration.between(previous.get(), following.get());
            if (gap.compareTo(shortest) < 0) {
                shortest = gap;
            }
            if (shortest.compareTo(Duration.ofMinutes(1)) <= 0) {
                break; // no cron fires more often
            }
            previous = following;
        }
        return shortest;
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
