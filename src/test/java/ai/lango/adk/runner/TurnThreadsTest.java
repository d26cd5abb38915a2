package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TurnThreadsTest {

    private TurnThreads threads;

    @AfterEach
    void stop() {
        RunnerFixtures.stop(threads);
    }

    @Test
    void turnsOneAfterAnotherShareAThread() throws Exception {
        threads = RunnerFixtures.threads();
        Set<Thread> used = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 20; i++) {
            CountDownLatch done = new CountDownLatch(1);
            threads.execute(() -> {
                used.add(Thread.currentThread());
                done.countDown();
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));
            for (int wait = 0; wait < 1000 && !threads.idleThread(); wait++) {
                Thread.sleep(5); // until the thread is back waiting for the next turn
            }
        }
        assertEquals(1, used.size(), "one thread, not one per turn");
    }

    @Test
    void turnsPastTheMaximumWaitInLine() throws Exception {
        threads = RunnerFixtures.threads();
        threads.stop();
        threads.start(2);
        Set<Thread> used = ConcurrentHashMap.newKeySet();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(3);
        CountDownLatch done = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            threads.execute(() -> {
                used.add(Thread.currentThread());
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
        }
        assertFalse(started.await(300, TimeUnit.MILLISECONDS), "the third turn waits while two run");
        assertEquals(1, started.getCount());
        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS), "the waiting turn ran once a thread was free");
        assertEquals(2, used.size());
    }
}
