package ai.lango.schedule;

import ai.lango.config.Ids;
import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A user's schedules, for the API and the agent's tools alike: made (validated, within lango.schedules.max-per-user and
 * min-interval), listed, paused and resumed, deleted — each by its owner only; another user's is as if it did not exist.
 */
@ApplicationScoped
public class Schedules {

    /** The longest message a schedule may carry. */
    public static final int MAX_MESSAGE_CHARS = 8000;

    @Inject
    ScheduleRows rows;

    @Inject
    LangoSettings.Schedules settings;

    /** What a user asks for: exactly one of cron, every and at; zone null for the server's. */
    public record Request(String sessionKey, String message, String cron, String every, String at, String zone) {
    }

    /** A schedule refused for the user's count (lango.schedules.max-per-user). */
    public static final class LimitReached extends RuntimeException {
        public LimitReached(String message) {
            super(message, null, false, false);
        }
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /** Makes a schedule of {@code userId}'s; an {@link Timing.InvalidSchedule} names the field that is wrong. */
    public Schedule create(String userId, Request request) {
        String sessionKey = request.sessionKey() == null || request.sessionKey().isBlank() ? "default" : request.sessionKey().strip();
        Ids.problem("sessionKey", sessionKey).ifPresent(problem -> {
            throw new Timing.InvalidSchedule("sessionKey", problem);
        });
        String message = request.message() == null ? "" : request.message().strip();
        if (message.isEmpty()) {
            throw new Timing.InvalidSchedule("message", "\"message\" is required: what the schedule says in the session");
        }
        if (message.length() > MAX_MESSAGE_CHARS) {
            throw new Timing.InvalidSchedule("message", "\"message\" is limited to " + MAX_MESSAGE_CHARS + " characters");
        }
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS); // as stored
        ZoneId zone = Timing.zone(request.zone(), ZoneId.systemDefault());
        Timing timing = Timing.of(request.cron(), request.every(), request.at(), request.zone(), ZoneId.systemDefault(),
                settings.minInterval(), now);
        if (rows.countOf(userId) >= settings.maxPerUser()) {
            throw new LimitReached("you have " + settings.maxPerUser() + " schedules, as many as you may"
                    + " (lango.schedules.max-per-user): delete one first");
        }
        Schedule schedule = new Schedule(UUID.randomUUID().toString(), userId, sessionKey, message, timing.kind(), timing.spec(),
                zone.getId(), false, timing.next(now), Optional.empty(), Optional.empty(), now, Optional.empty());
        rows.insert(schedule);
        return schedule;
    }

    /** The user's schedules, oldest first. */
    public List<Schedule> of(String userId) {
        return rows.of(userId);
    }

    /** The user's schedule {@code id}; empty when there is none of theirs. */
    public Optional<Schedule> get(String userId, String id) {
        return rows.get(id).filter(s -> s.userId().equals(userId));
    }

    /** Pauses or resumes the user's schedule; a resumed one goes on at its first time from now. */
    public Optional<Schedule> pause(String userId, String id, boolean paused) {
        Optional<Schedule> found = get(userId, id);
        if (found.isEmpty()) {
            return found;
        }
        rows.pause(id, paused, paused ? Optional.empty() : found.get().timing().next(Instant.now()));
        return rows.get(id);
    }

    /** Deletes the user's schedule: no fire of it comes any more. Whether there was one of theirs. */
    public boolean delete(String userId, String id) {
        return get(userId, id).isPresent() && rows.delete(id);
    }
}
