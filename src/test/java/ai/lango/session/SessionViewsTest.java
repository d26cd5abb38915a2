package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import ai.lango.turn.SessionRef;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The views a server keeps between turns on its own database are exactly what reading the
 * database gives: after every kind of append, with cuts, tool calls and state changes.
 */
class SessionViewsTest {

    private static final int BUDGET = 300;

    @TempDir
    Path dir;

    private static LangoSettings settings(Path dir, Duration ttl) {
        return LocalTransactions.settings(dir, ttl, BUDGET);
    }

    @Test
    void theKeptViewIsWhatTheDatabaseGivesAfterEveryAppend() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore server = local.serverStore(settings(dir, Duration.ZERO));
            SessionStore reader = local.store(settings(dir, Duration.ZERO)); // keeps nothing: reads every time
            SessionRef key = SessionRef.of("ann", "kept-" + System.nanoTime());
            server.open(key, BUDGET); // created, and its (empty) view kept
            Instant when = Instant.parse("2026-11-26T10:00:00.123456789Z"); // finer than the database keeps
            for (int i = 0; i < 120; i++) {
                when = when.plusNanos(1_234_567);
                Message message = switch (i % 5) {
                    case 0 -> new Message("assistant", "an answer before any question " + i, when, "lango-agent", List.of(), null);
                    case 1 -> new Message("user", "question " + i + " " + "words ".repeat(i % 40), when, "user", List.of(), "{\"raw\":" + i + "}");
                    case 2 -> new Message("assistant", "", when, "lango-agent",
                            List.of(new ToolCall("call-" + i, "fs_read", "{\"path\":\"a" + i + "\"}", null),
                                    new ToolCall(ToolCall.syntheticId("exec"), "exec", "{}", null)), null);
                    case 3 -> new Message("tool", "", when, "lango-agent",
                            List.of(new ToolCall("call-" + (i - 1), "fs_read", null, "{\"text\":\"" + "x".repeat(i * 3) + "\"}")), null);
                    default -> new Message("assistant", "done " + i, when, "lango-agent", List.of(), null);
                };
                Map<String, Object> changes = new HashMap<>();
                if (i % 7 == 0) {
                    changes.put("step", i);
                }
                if (i % 11 == 0) {
                    changes.put("step", StateDelta.REMOVED);
                }
                server.append(key, i % 13 == 0 ? null : message, new StateDelta(changes, Map.of(), Map.of()), when);
                assertEquals(reader.open(key, BUDGET), server.open(key, BUDGET), "after append " + i);
            }
            assertTrue(reader.messages(key).size() > server.open(key, BUDGET).history().size(), "the history was cut");

            // What was kept is what the server reads: a row it did not write itself is not seen.
            local.rows().append(key, new Message("user", "behind its back", when, "user", List.of(), null), StateDelta.NONE, when);
            assertNotEquals(reader.open(key, BUDGET), server.open(key, BUDGET));
        }
    }

    @Test
    void sharedStateDeletionAndAnotherBudgetAreReadAgain() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore server = local.serverStore(settings(dir, Duration.ZERO));
            SessionStore reader = local.store(settings(dir, Duration.ZERO));
            SessionRef key = SessionRef.of("bob", "shared-" + System.nanoTime());
            SessionRef other = SessionRef.of("bob", "other-" + System.nanoTime());
            Instant when = Instant.now();
            server.open(key, BUDGET);
            server.open(other, BUDGET);
            server.append(key, new Message("user", "hello", when, "user", List.of(), null), StateDelta.NONE, when);
            // A user-wide value set by another session is in this one's next view.
            server.append(other, null, new StateDelta(Map.of(), Map.of(), Map.of("tone", "dry")), when);
            assertEquals(Map.of("tone", "dry"), server.open(key, BUDGET).userState());
            assertEquals(reader.open(key, BUDGET), server.open(key, BUDGET));
            assertEquals(reader.open(key, 50), server.open(key, 50), "another budget");

            server.delete(key);
            assertEquals(List.of(), server.open(key, BUDGET).history(), "a deleted session starts again empty");
            assertEquals(reader.open(key, BUDGET), server.open(key, BUDGET));
        }
    }

    @Test
    void anExpiredSessionIsReadAgainAndRenewed() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            Duration ttl = Duration.ofHours(1);
            SessionStore server = local.serverStore(settings(dir, ttl));
            SessionRef key = SessionRef.of("cy", "expiring-" + System.nanoTime());
            Instant longAgo = Instant.now().minus(Duration.ofHours(2));
            server.open(key, BUDGET);
            server.append(key, new Message("user", "old question", longAgo, "user", List.of(), null), StateDelta.NONE, longAgo);
            assertEquals(List.of(), server.open(key, BUDGET).history(), "idle longer than the TTL: emptied");
            Instant now = Instant.now();
            server.append(key, new Message("user", "new question", now, "user", List.of(), null), StateDelta.NONE, now);
            assertEquals(List.of("new question"), server.open(key, BUDGET).history().stream().map(Message::content).toList());
        }
    }

    @Test
    void aViewReadWhileItsSessionWasWrittenIsNotKept() {
        SessionViews views = new SessionViews(true);
        SessionRef key = SessionRef.of("dee", "racing");
        SessionViews.Snapshot read = new SessionViews.Snapshot("racing", key.appName(), "dee", "{}", 1, 1, List.of(),
                null, null, BUDGET);
        long before = views.beforeRead();
        views.appended(key, new Message("user", "hi", Instant.now(), "user", List.of(), null), StateDelta.NONE,
                Instant.now(), Duration.ZERO);
        views.read(key, read, before);
        assertTrue(views.view(key, BUDGET, Duration.ZERO).isEmpty(), "it may predate the write");

        views.read(key, read, views.beforeRead());
        assertTrue(views.view(key, BUDGET, Duration.ZERO).isPresent());
        assertTrue(views.view(key, BUDGET + 1, Duration.ZERO).isEmpty(), "read for another budget");
    }

    @Test
    void nothingIsKeptOnADatabaseOtherServersWrite() {
        SessionViews views = new SessionViews(false);
        SessionRef key = SessionRef.of("eve", "shared-db");
        views.read(key, new SessionViews.Snapshot("shared-db", key.appName(), "eve", "{}", 1, 1, List.of(), null, null,
                BUDGET), views.beforeRead());
        assertTrue(views.view(key, BUDGET, Duration.ZERO).isEmpty());
    }

    @Test
    void whatIsKeptIsBoundedBySizeAndAllOfItIsReadAgainBeyondTheBound() {
        SessionViews views = new SessionViews(true);
        SessionRef big = SessionRef.of("fay", "big");
        SessionRef small = SessionRef.of("fay", "small");
        Message huge = new Message("tool", "x".repeat((int) SessionViews.MAX_KEPT_CHARS + 1), Instant.now(), "lango-agent",
                List.of(), null);
        views.read(big, new SessionViews.Snapshot("big", big.appName(), "fay", "{}", 1, 1, List.of(huge), null, null,
                BUDGET), views.beforeRead());
        assertTrue(views.view(big, BUDGET, Duration.ZERO).isPresent());
        views.appended(small, new Message("user", "hi", Instant.now(), "user", List.of(), null), StateDelta.NONE,
                Instant.now(), Duration.ZERO);
        assertTrue(views.view(big, BUDGET, Duration.ZERO).isEmpty(), "over the bound: everything is dropped");
    }
}
