package ai.lango.schedule;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.BitSet;
import java.util.Locale;
import java.util.Optional;

/**
 * A cron expression in the usual five fields — minute, hour, day of month, month, day of week — with lists ({@code 1,15}),
 * ranges ({@code 1-5}), steps ({@code *}{@code /10}, {@code 8-18/2}), month and day names ({@code JAN}, {@code MON}) and
 * Sunday as 0 or 7. As in Vixie cron, when both day fields are restricted a day matches either. Times are wall-clock
 * times in a zone: a time skipped by a daylight-saving change fires shifted by the gap's length (02:30 becomes
 * 03:30, as java.time resolves it), and a time that happens twice fires once, at its first.
 */
public final class Cron {

    private static final String[] MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};
    /** No five-field expression waits longer than this many years between fires (29 February on a Monday: 28). */
    private static final int SEARCH_YEARS = 30;

    private final String text;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean anyDayOfMonth;
    private final boolean anyDayOfWeek;

    private Cron(String text, BitSet minutes, BitSet hours, BitSet daysOfMonth, BitSet months, BitSet daysOfWeek,
                 boolean anyDayOfMonth, boolean anyDayOfWeek) {
        this.text = text;
        this.minutes = minutes;
        this.hours = hours;
        this.daysOfMonth = daysOfMonth;
        this.months = months;
        this.daysOfWeek = daysOfWeek;
        this.anyDayOfMonth = anyDayOfMonth;
        this.anyDayOfWeek = anyDayOfWeek;
    }

    /** Parses five fields; an {@link IllegalArgumentException} says which field is wrong and why. */
    public static Cron parse(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("a cron expression has five fields: minute hour day-of-month month day-of-week");
        }
        String[] fields = expression.strip().split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("a cron expression has five fields (minute hour day-of-month month day-of-week),"
                    + " not " + fields.length);
        }
        BitSet minutes = field("minute", fields[0], 0, 59, null);
        BitSet hours = field("hour", fields[1], 0, 23, null);
        BitSet daysOfMonth = field("day of month", fields[2], 1, 31, null);
        BitSet months = field("month", fields[3], 1, 12, MONTHS);
        BitSet daysOfWeek = field("day of week", fields[4], 0, 7, DAYS);
        if (daysOfWeek.get(7)) {
            daysOfWeek.set(0); // 7 is Sunday too
            daysOfWeek.clear(7);
        }
        Cron cron = new Cron(String.join(" ", fields), minutes, hours, daysOfMonth, months, daysOfWeek,
                fields[2].startsWith("*"), fields[4].startsWith("*"));
        if (cron.next(LocalDateTime.of(2000, 1, 1, 0, 0), LocalDateTime.of(2000 + SEARCH_YEARS, 1, 1, 0, 0)).isEmpty()) {
            throw new IllegalArgumentException("the day of month and month never meet (\"" + fields[2] + " " + fields[3] + "\")");
        }
        return cron;
    }

    private static BitSet field(String name, String field, int min, int max, String[] names) {
        BitSet values = new BitSet(max + 1);
        for (String part : field.split(",", -1)) {
            try {
                part(values, part.toUpperCase(Locale.ROOT), min, max, names);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the " + name + " field \"" + field + "\" is not valid: " + e.getMessage()
                        + " (allowed: " + min + "-" + max + (names == null ? "" : " or names such as " + names[1]) + ", '*',"
                        + " lists a,b, ranges a-b and steps /n)");
            }
        }
        return values;
    }

    private static void part(BitSet values, String part, int min, int max, String[] names) {
        if (part.isEmpty()) {
            throw new IllegalArgumentException("an empty item");
        }
        int step = 1;
        int slash = part.indexOf('/');
        String range = part;
        if (slash >= 0) {
            step = number(part.substring(slash + 1), 1, max, null);
            range = part.substring(0, slash);
        }
        int from;
        int to;
        if (range.equals("*")) {
            from = min;
            to = max == 7 ? 6 : max; // * in day of week: Sunday once
        } else if (range.contains("-")) {
            String[] ends = range.split("-", -1);
            if (ends.length != 2) {
                throw new IllegalArgumentException("\"" + part + "\" is not a range a-b");
            }
            from = number(ends[0], min, max, names);
            to = number(ends[1], min, max, names);
            if (to < from) {
                throw new IllegalArgumentException("the range " + range + " runs backwards");
            }
        } else {
            from = number(range, min, max, names);
            to = slash >= 0 ? max : from; // "5/15": from 5 on, every 15
        }
        for (int v = from; v <= to; v += step) {
            values.set(v);
        }
    }

    private static int number(String text, int min, int max, String[] names) {
        if (names != null) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(text)) {
                    return names == MONTHS ? i + 1 : i;
                }
            }
        }
        if (!text.matches("[0-9]{1,2}")) {
            throw new IllegalArgumentException("\"" + text + "\" is not a number");
        }
        int value = Integer.parseInt(text);
        if (value < min || value > max) {
            throw new IllegalArgumentException(value + " is out of range");
        }
        return value;
    }

    /** The first time strictly after {@code after} that matches, in {@code zone}; empty when none comes (never, once parsed). */
    public Optional<Instant> next(Instant after, ZoneId zone) {
        ZonedDateTime start = after.atZone(zone);
        LocalDateTime from = start.toLocalDateTime().withSecond(0).withNano(0);
        // Candidates in wall-clock time; the first whose instant is after {@code after} (a time repeated by a daylight
        // change is considered once, at its first instant).
        LocalDateTime limit = from.plusYears(SEARCH_YEARS);
        LocalDateTime candidate = from;
        while (true) {
            Optional<LocalDateTime> found = next(candidate, limit);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            Instant at = ZonedDateTime.ofLocal(found.get(), zone, null).toInstant();
            if (at.isAfter(after)) {
                return Optional.of(at);
            }
            candidate = found.get().plusMinutes(1);
        }
    }

    /** The first matching wall-clock minute at or after {@code from}, before {@code limit}. */
    private Optional<LocalDateTime> next(LocalDateTime from, LocalDateTime limit) {
        LocalDate day = from.toLocalDate();
        LocalTime earliest = from.toLocalTime();
        while (day.atStartOfDay().isBefore(limit)) {
            if (!months.get(day.getMonthValue())) {
                day = day.withDayOfMonth(1).plusMonths(1);
                earliest = LocalTime.MIDNIGHT;
                continue;
            }
            if (dayMatches(day)) {
                Optional<LocalTime> time = firstTime(earliest);
                if (time.isPresent()) {
                    return Optional.of(day.atTime(time.get()));
                }
            }
            day = day.plusDays(1);
            earliest = LocalTime.MIDNIGHT;
        }
        return Optional.empty();
    }

    private boolean dayMatches(LocalDate day) {
        boolean dom = daysOfMonth.get(day.getDayOfMonth());
        boolean dow = daysOfWeek.get(day.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : day.getDayOfWeek().getValue());
        if (anyDayOfMonth && anyDayOfWeek) {
            return true;
        }
        if (anyDayOfMonth) {
            return dow;
        }
        if (anyDayOfWeek) {
            return dom;
        }
        return dom || dow;
    }

    private Optional<LocalTime> firstTime(LocalTime earliest) {
        for (int h = hours.nextSetBit(earliest.getHour()); h >= 0; h = hours.nextSetBit(h + 1)) {
            int m = minutes.nextSetBit(h == earliest.getHour() ? earliest.getMinute() : 0);
            if (m >= 0) {
                return Optional.of(LocalTime.of(h, m));
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return text;
    }
}
