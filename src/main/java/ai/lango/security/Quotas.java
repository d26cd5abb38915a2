package ai.lango.security;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * lango.quota.*'s rate and concurrency limits for users who do not administer, counted in this
 * server's memory: requests per minute (a fixed window per user) and turns running at once. The
 * session count and state size are checked where sessions are made.
 */
@ApplicationScoped
public class Quotas {

    private static final long MINUTE_MS = 60_000;

    @Inject
    LangoSettings.Access access;

    /** The clock, in milliseconds (a test sets its own). */
    LongSupplier clock = System::currentTimeMillis;

    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

    /** One user's requests in the minute that started at {@code start}. */
    private record Window(long start, int count) {
    }

    /** A turn's place among its user's running turns, given back when the turn ends. */
    public interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    private static final Permit NO_LIMIT = () -> { };

    public LangoSettings.Quotas limits() {
        return access.quotas();
    }

    private static boolean exempt(Identity caller) {
        return caller.admin();
    }

    /** Counts one request of the caller; when it is over the rate, how long until the next minute starts. */
    public Optional<Duration> request(Identity caller) {
        int limit = limits().requestsPerMinute();
        if (limit == 0 || exempt(caller)) {
            return Optional.empty();
        }
        long now = clock.getAsLong();
        long minute = now - now % MINUTE_MS;
        Window counted = windows.compute(caller.userId(), (user, window) ->
                window == null || window.start() != minute ? new Window(minute, 1) : new Window(minute, window.count() + 1));
        if (windows.size() > 10_000) {
            windows.values().removeIf(w -> w.start() < minute);
        }
        return counted.count() > limit ? Optional.of(Duration.ofMillis(minute + MINUTE_MS - now)) : Optional.empty();
    }

    /** A permit for one more running turn of the caller, or empty when they already run as many as they may. */
    public Optional<Permit> turn(Identity caller) {
        int limit = limits().concurrentTurns();
        if (limit == 0 || exempt(caller)) {
            return Optional.of(NO_LIMIT);
        }
        AtomicInteger count = running.computeIfAbsent(caller.userId(), user -> new AtomicInteger());
        if (count.incrementAndGet() > limit) {
            count.decrementAndGet();
            return Optional.empty();
        }
        return Optional.of(new Permit() {
            private boolean closed;

            @Override
            public synchronized void close() {
                if (!closed) {
                    closed = true;
                    count.decrementAndGet();
                }
            }
        });
    }

    /** Whether the caller may create one more session, having {@code sessions}. */
    public boolean maySessionBeAdded(Identity caller, long sessions) {
        int limit = limits().sessionsPerUser();
        return limit == 0 || exempt(caller) || sessions < limit;
    }

    /** Whether the caller may give a new session a state of this many bytes (as JSON). */
    public boolean mayStateBe(Identity caller, long bytes) {
        return exempt(caller) || bytes <= limits().sessionStateMax();
    }
}
