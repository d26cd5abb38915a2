package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SessionTurnsTest {

    @Test
    void turnsOnOneSessionNeverInterleave() throws Exception {
        SessionTurns turns = new SessionTurns();
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch firstHolds = new CountDownLatch(1);
        Thread first = new Thread(() -> {
            try (SessionTurns.Held held = turns.acquire("s", Duration.ofSeconds(5))) {
                log.add("first start");
                firstHolds.countDown();
                Thread.sleep(200);
                log.add("first end");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        first.start();
        firstHolds.await();
        try (SessionTurns.Held held = turns.acquire("s", Duration.ofSeconds(5))) {
            log.add("second start");
        }
        first.join();
        assertEquals(List.of("first start", "first end", "second start"), log);
        assertEquals(0, turns.active(), "idle sessions leave nothing behind");
    }

    @Test
    void otherSessionsDoNotWait() throws Exception {
        SessionTurns turns = new SessionTurns();
        try (SessionTurns.Held a = turns.acquire("a", Duration.ofSeconds(1));
             SessionTurns.Held b = turns.acquire("b", Duration.ofMillis(10))) {
            assertEquals(2, turns.active());
        }
    }

    @Test
    void waitingPastTheTimeoutIsRefused() throws Exception {
        SessionTurns turns = new SessionTurns();
        try (SessionTurns.Held held = turns.acquire("s", Duration.ofSeconds(1))) {
            long start = System.nanoTime();
            assertThrows(SessionTurns.BusyException.class, () -> turns.acquire("s", Duration.ofMillis(100)));
            assertTrue(System.nanoTime() - start >= 90_000_000L);
        }
        assertEquals(0, turns.active());
    }
}
