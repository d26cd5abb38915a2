package ai.lango.adk.runner;

import java.time.Duration;
import java.util.Optional;

/**
 * One turn at a time per session across servers sharing a database, on top of the one-per-process
 * rule: what a turn holds besides its in-process lock.
 */
@FunctionalInterface
public interface ServerTurns {

    /** The turn of the session with this {@code SessionRef} scope across servers, as the action that releases it; empty when {@code wait} passed first. */
    Optional<Runnable> acquire(String sessionScope, Duration wait) throws InterruptedException;

    /** One server: the in-process lock is enough. */
    ServerTurns NONE = (sessionScope, wait) -> Optional.of(() -> { });
}
