package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.turn.SessionRef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's own reads on the embedded database, through EclipseLink and the Flyway schema. */
class SessionRowsTest {

    private static final Instant T = Instant.ofEpochMilli(1_700_000_000_000L);

    @TempDir
    Path dir;

    @Test
    void newestWindowIsTheTruncatedHistoryWhileOtherSessionsInterleave() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.store(null);
            SessionRef a = SessionRef.of("user", "a");
            SessionRef b = SessionRef.of("user", "b");
            local.rows().insert(a, Map.of());
            local.rows().insert(b, Map.of());
            for (int i = 0; i < 300; i++) {
                store.append(a, message(i % 2 == 0 ? "user" : "assistant", "a" + i + " " + "x".repeat(i % 37)), StateDelta.NONE, T);
                store.append(b, message("user", "b" + i), StateDelta.NONE, T);
            }
            List<Message> all = store.messages(a);
            for (int budget : new int[] {1, 50, 333, 1_000, 2_500, 100_000}) {
                assertEquals(HistoryTruncation.truncate(all, budget), store.history(a, budget), "budget " + budget);
            }
        }
    }

    @Test
    void rowsCountedBeforeAToolResultCountedOnceStillGiveTheTruncatedHistory() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.store(null);
            SessionRef a = SessionRef.of("user", "legacy-" + System.nanoTime());
            local.rows().insert(a, Map.of());
            for (int i = 0; i < 40; i++) {
                String output = "{\"output\":\"" + "r".repeat(200 + 13 * i) + "\"}";
                store.append(a, message("user", "question " + i), StateDelta.NONE, T);
                store.append(a, new Message("assistant", "", T, "lango-agent",
                        List.of(new ToolCall("c" + i, "fs_read", "{\"path\":\"f\"}", null)), null), StateDelta.NONE, T);
                store.append(a, new Message("tool", output, T, "lango-agent",
                        List.of(new ToolCall("c" + i, "fs_read", null, output)), null), StateDelta.NONE, T);
                store.append(a, message("assistant", "answer " + i), StateDelta.NONE, T);
            }
            // as an earlier estimate stored them: a result's output counted again besides the content
            try (Connection connection = local.dataSource().getConnection(); Statement sql = connection.createStatement()) {
                sql.executeUpdate("UPDATE lango_messages SET tokens = 2 * tokens WHERE role = 'tool'");
            }
            List<Message> all = store.messages(a);
            for (int budget = 60; budget <= 3_000; budget += 37) {
                List<Message> history = store.history(a, budget);
                assertEquals(HistoryTruncation.truncate(all, budget), history, "budget " + budget);
                assertTrue(history.isEmpty() || Roles.isUser(history.get(0).role()), "budget " + budget + " opens with the user");
            }
        }
    }

    @Test
    void theNewestCompactionIsFoundAmongASessionsMessages() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.store(null);
            SessionRef a = SessionRef.of("user", "a");
            local.rows().insert(a, Map.of());
            assertTrue(store.newestCompaction(a).isEmpty());
            store.append(a, message("user", "one"), StateDelta.NONE, T);
            store.append(a, new Message(Roles.COMPACTION, "first summary", T, "lango-agent", List.of(), "{}"), StateDelta.NONE, T);
            store.append(a, new Message(Roles.COMPACTION, "second summary", T, "lango-agent", List.of(), "{}"), StateDelta.NONE, T);
            store.append(a, message("user", "two"), StateDelta.NONE, T);
            assertEquals("second summary", store.newestCompaction(a).orElseThrow().content());
        }
    }

    @Test
    void groupCommitWritesEveryMessageAsStoredAndRefusesSessionsThatAreGone() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.store(null);
            SessionRef known = SessionRef.of("user", "known");
            SessionRef firstTime = SessionRef.of("user", "first-time");
            SessionRef gone = SessionRef.of("user", "gone");
            SessionRef never = SessionRef.of("user", "never");
            for (SessionRef ref : List.of(known, firstTime, gone)) {
                local.rows().insert(ref, Map.of());
            }
            Message question = message("user", "what is in the box?");
            store.append(known, question, StateDelta.NONE, T); // its id is remembered from now on
            store.append(gone, message("user", "soon gone"), StateDelta.NONE, T);
            try (Connection connection = local.dataSource().getConnection(); Statement sql = connection.createStatement()) {
                sql.executeUpdate("DELETE FROM lango_sessions WHERE session_key = 'gone'"); // as another server would
            }
            Message answer = new Message("assistant", "a cat, \u00e9t\u00e9 \"quoted\"\n", T.plusNanos(1_234_567), "lango-agent",
                    List.of(), "{\"raw\":true}");
            Message call = new Message("assistant", "", T.plusMillis(2), "lango-agent",
                    List.of(new ToolCall("c1", "fs_read", "{\"path\":\"box\"}", null)), null);

            List<Boolean> appended = local.rows().appendAll(List.of(
                    new SessionRows.MessageAppend(known, answer, T.plusMillis(5)),
                    new SessionRows.MessageAppend(firstTime, call, T.plusMillis(6)),
                    new SessionRows.MessageAppend(never, message("user", "hello?"), T),
                    new SessionRows.MessageAppend(gone, message("user", "still there?"), T)));

            assertEquals(List.of(true, true, false, false), appended);
            assertEquals(List.of(MessageEntity.asStored(question), MessageEntity.asStored(answer)), store.messages(known));
            assertEquals(List.of(MessageEntity.asStored(call)), store.messages(firstTime));
            assertEquals(T.plusMillis(5), store.find(known).orElseThrow().updatedAt());
            assertEquals(T.plusMillis(6), store.find(firstTime).orElseThrow().updatedAt());
            assertTrue(store.find(gone).isEmpty());
        }
    }

    @Test
    void aTurnsEndRidesInTheGroupCommitOfOtherTurnsMessagesAndOnlyOnItsOwnServer() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.store(null);
            SessionRef a = SessionRef.of("user", "a");
            SessionRef b = SessionRef.of("user", "b");
            local.rows().insert(a, Map.of());
            local.rows().insert(b, Map.of());
            String mine = "turn-" + System.nanoTime();
            String theirs = mine + "-other";
            local.rows().appendAll(List.of(
                    new SessionRows.MessageAppend(a, message("user", "one"), T, List.of(), begin(mine, a, "s1")),
                    new SessionRows.MessageAppend(b, message("user", "two"), T, List.of(), begin(theirs, b, "s2"))));

            // One transaction: another turn's message, this turn's end, and an end for a turn another server runs.
            List<Boolean> written = local.rows().appendAll(List.of(
                    new SessionRows.MessageAppend(b, message("assistant", "an answer"), T.plusMillis(1)),
                    SessionRows.MessageAppend.ended(new TurnRecord.End(mine, TurnRecord.State.DONE, null, "s1", T.plusMillis(2))),
                    SessionRows.MessageAppend.ended(new TurnRecord.End(theirs, TurnRecord.State.FAILED, "no", "s1", T.plusMillis(2)))));

            assertEquals(List.of(true, true, true), written);
            assertEquals(2, store.messages(b).size());
            assertEquals("done|null|" + T.plusMillis(2).toEpochMilli(), turnRow(local, mine));
            assertEquals("running|s2|" + T.toEpochMilli(), turnRow(local, theirs), "another server's turn is left alone");

            store.turnEnded(new TurnRecord.End(theirs, TurnRecord.State.WAITING, null, "s2", T.plusMillis(3)));
            assertEquals("waiting|null|" + T.plusMillis(3).toEpochMilli(), turnRow(local, theirs));
        }
    }

    @Test
    void oneGroupCommitBeginsNewTurnsSupersedesTheirSessionsWaitingTurnAndContinuesATurnThatGoesOn() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.store(null);
            SessionRef a = SessionRef.of("user", "a");
            SessionRef b = SessionRef.of("user", "b");
            SessionRef c = SessionRef.of("user", "c");
            for (SessionRef session : List.of(a, b, c)) {
                local.rows().insert(session, Map.of());
            }
            String run = "turn-" + System.nanoTime();
            String waitingInA = run + "-a0";
            String waitingInC = run + "-c";
            local.rows().appendAll(List.of(
                    new SessionRows.MessageAppend(a, message("user", "zero"), T, List.of(), begin(waitingInA, a, "s1")),
                    new SessionRows.MessageAppend(c, message("user", "delete it"), T, List.of(), begin(waitingInC, c, "s1"))));
            store.turnEnded(new TurnRecord.End(waitingInA, TurnRecord.State.WAITING, null, "s1", T.plusMillis(1)));
            store.turnEnded(new TurnRecord.End(waitingInC, TurnRecord.State.WAITING, null, "s1", T.plusMillis(1)));

            // One transaction: a new turn in a (its waiting turn is over), a new one in b, and c's waiting turn going on.
            Instant later = T.plusMillis(5);
            List<Boolean> written = local.rows().appendAll(List.of(
                    new SessionRows.MessageAppend(a, message("user", "one"), later, List.of(), begin(run + "-a1", a, "s1", later)),
                    new SessionRows.MessageAppend(b, message("user", "two"), later, List.of(), begin(run + "-b", b, "s1", later)),
                    new SessionRows.MessageAppend(c, message("user", "yes"), later, List.of(), begin(waitingInC, c, "s2", later))));

            assertEquals(List.of(true, true, true), written);
            assertEquals("done|null|" + later.toEpochMilli(), turnRow(local, waitingInA), "superseded by the new message");
            assertEquals("running|s1|" + later.toEpochMilli(), turnRow(local, run + "-a1"));
            assertEquals("running|s1|" + later.toEpochMilli(), turnRow(local, run + "-b"));
            assertEquals("running|s2|" + later.toEpochMilli(), turnRow(local, waitingInC), "the turn that goes on keeps its row");
            try (Connection connection = local.dataSource().getConnection(); Statement sql = connection.createStatement();
                 java.sql.ResultSet rows = sql.executeQuery("SELECT COUNT(*) FROM lango_turns WHERE id LIKE '" + run + "%'")) {
                rows.next();
                assertEquals(4, rows.getInt(1), "one row per turn");
            }
        }
    }

    @Test
    void aNewSessionTakesItsIdFromTheSequenceNotFromEclipseLinksPreallocatedBlock() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionRef first = SessionRef.of("user", "first");
            SessionRef second = SessionRef.of("user", "second");
            local.rows().insert(first, Map.of());
            local.rows().insert(second, Map.of());
            long one = local.rows().id(first).orElseThrow();
            long two = local.rows().id(second).orElseThrow();
            assertEquals(50, two - one, "one value of the sequence (INCREMENT BY 50) per session");
        }
    }

    @Test
    void peekGivesTheViewOpenGivesAndNeverCreatesASession() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            SessionStore store = local.serverStore(null);
            SessionRef gone = SessionRef.of("user", "gone-" + System.nanoTime());
            assertTrue(store.peek(gone, 1_000).isEmpty());
            assertTrue(store.find(gone).isEmpty(), "a look after a turn of a deleted session does not bring it back");

            SessionRef a = SessionRef.of("user", "a");
            store.open(a, 1_000);
            store.append(a, message("user", "one"), StateDelta.NONE, T);
            assertEquals(store.open(a, 1_000).history(), store.peek(a, 1_000).orElseThrow().history());
            assertEquals(List.of(MessageEntity.asStored(message("user", "one"))), store.peek(a, 1_000).orElseThrow().history());
        }
    }

    private static TurnRecord.Begin begin(String id, SessionRef session, String server) {
        return begin(id, session, server, T);
    }

    private static TurnRecord.Begin begin(String id, SessionRef session, String server, Instant at) {
        return new TurnRecord.Begin(new TurnRecord(id, session.userId(), session.key(), session.scope(), TurnRecord.State.RUNNING,
                server, "ws", null, false, "operator", true, 0, at, at, at, null));
    }

    /** state|server|updated_at of a turn's row. */
    private static String turnRow(LocalTransactions local, String id) throws Exception {
        try (Connection connection = local.dataSource().getConnection(); Statement sql = connection.createStatement();
             java.sql.ResultSet row = sql.executeQuery("SELECT state, server, updated_at FROM lango_turns WHERE id = '" + id + "'")) {
            assertTrue(row.next(), "the turn's row");
            return row.getString(1) + "|" + row.getString(2) + "|" + row.getLong(3);
        }
    }

    private static Message message(String role, String content) {
        return new Message(role, content, T, role.equals("user") ? "user" : "lango-agent", List.of(), null);
    }
}
