package ai.lango.database;

import ai.lango.turn.SessionRef;
import ai.lango.session.EmbeddedEngine;
import ai.lango.session.LocalTransactions;
import ai.lango.session.Message;
import ai.lango.session.SessionStore;
import ai.lango.session.StateDelta;
import ai.lango.session.ToolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An earlier version's H2 database is imported at the first start, or the start refused saying what to run. */
class H2ImportTest {

    private static final Instant T = Instant.ofEpochMilli(1_700_000_000_000L);

    @TempDir
    Path dir;

    private static final SessionRef FIRST = SessionRef.of("ann", "first");
    private static final SessionRef SECOND = SessionRef.of("bob", "second");

    private Path db() {
        return dir.resolve("db");
    }

    /** What an earlier version left: an H2 database with two sessions, a tool call and shared state. */
    private void earlierVersionStored() throws Exception {
        try (LocalTransactions h2 = new LocalTransactions(db(), EmbeddedEngine.H2, false)) {
            SessionStore store = h2.store(null);
            h2.store(null).create(FIRST, Map.of("topic", "files"));
            h2.store(null).create(SECOND, Map.of());
            store.append(FIRST, message("user", "list files"), StateDelta.NONE, T);
            store.append(FIRST, new Message("assistant", "", T, "lango-agent",
                    List.of(new ToolCall("c1", "fs_list", "{\"path\":\".\"}", null)), "{\"raw\":1}"), StateDelta.NONE, T);
            store.append(FIRST, new Message("tool", "", T, "lango-agent",
                    List.of(new ToolCall("c1", "fs_list", null, "{\"entries\":[]}")), null), StateDelta.NONE, T);
            store.append(SECOND, message("user", "hello"),
                    new StateDelta(Map.of(), Map.of("theme", "dark"), Map.of("name", "Bob")), T.plusSeconds(1));
        }
    }

    private static Message message(String role, String content) {
        return new Message(role, content, T, role.equals("user") ? "user" : "lango-agent", List.of(), null);
    }

    private DataSource h2File() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:file:" + db().resolve("lango") + ";IFEXISTS=TRUE");
        h2.setUser("sa");
        return h2;
    }

    @Test
    void earlierH2DatabaseIsImportedWithSessionsMessagesToolCallsAndState() throws Exception {
        earlierVersionStored();
        try (LocalTransactions hsqldb = new LocalTransactions(db(), EmbeddedEngine.HSQLDB, false)) {
            H2Import.Result result = H2Import.importIfPresent(db(), hsqldb.dataSource(), this::h2File);

            assertEquals(new H2Import.Result(true, 2, 4), result);
            SessionStore store = hsqldb.store(null);
            List<Message> first = store.messages(FIRST);
            assertEquals(List.of("user", "assistant", "tool"), first.stream().map(Message::role).toList());
            assertEquals("list files", first.get(0).content());
            assertEquals(new ToolCall("c1", "fs_list", "{\"path\":\".\"}", null), first.get(1).toolCalls().get(0));
            assertEquals("{\"raw\":1}", first.get(1).raw());
            assertEquals(new ToolCall("c1", "fs_list", null, "{\"entries\":[]}"), first.get(2).toolCalls().get(0));
            assertEquals(Map.of("topic", "files"), store.find(FIRST).orElseThrow().state());
            assertEquals("ann", store.find(FIRST).orElseThrow().userId());
            assertEquals(T.plusSeconds(1), store.find(SECOND).orElseThrow().updatedAt());
            assertEquals(Map.of("theme", "dark"), store.appState("lango"));
            assertEquals(Map.of("name", "Bob"), store.userState("lango", "bob"));
        }
    }

    @Test
    void importedH2FileIsKeptUnderANewNameAndNotImportedTwice() throws Exception {
        earlierVersionStored();
        try (LocalTransactions hsqldb = new LocalTransactions(db(), EmbeddedEngine.HSQLDB, false)) {
            H2Import.importIfPresent(db(), hsqldb.dataSource(), this::h2File);

            assertFalse(Files.exists(db().resolve("lango.mv.db")));
            assertTrue(Files.exists(db().resolve("lango.mv.db.imported")));
            assertEquals(H2Import.Result.NOTHING, H2Import.importIfPresent(db(), hsqldb.dataSource(), this::h2File));
        }
    }

    @Test
    void writesAfterTheImportGetIdsAboveTheImportedOnes() throws Exception {
        earlierVersionStored();
        try (LocalTransactions hsqldb = new LocalTransactions(db(), EmbeddedEngine.HSQLDB, false)) {
            H2Import.importIfPresent(db(), hsqldb.dataSource(), this::h2File);
            SessionStore store = hsqldb.store(null);

            store.append(FIRST, message("assistant", "done"), StateDelta.NONE, T.plusSeconds(2));
            hsqldb.store(null).create(SessionRef.of("ann", "third"), Map.of());

            assertEquals(List.of("user", "assistant", "tool", "assistant"),
                    store.messages(FIRST).stream().map(Message::role).toList());
            assertEquals(3, hsqldb.entityManager().createQuery("SELECT COUNT(s) FROM SessionEntity s", Long.class).getSingleResult());
        }
    }

    @Test
    void noH2FileMeansNothingToImport() throws Exception {
        try (LocalTransactions hsqldb = new LocalTransactions(db(), EmbeddedEngine.HSQLDB, false)) {
            assertEquals(H2Import.Result.NOTHING, H2Import.importIfPresent(db(), hsqldb.dataSource(), () -> {
                throw new AssertionError("the H2 data source is asked for only when its file exists");
            }));
        }
    }

    @Test
    void h2FileBesideSessionsInHsqldbRefusesTheStartSayingWhatToRun() throws Exception {
        earlierVersionStored();
        try (LocalTransactions hsqldb = new LocalTransactions(db(), EmbeddedEngine.HSQLDB, false)) {
            hsqldb.store(null).create(SessionRef.of("ann", "newer"), Map.of());

            String message = assertThrows(H2Import.RefusedException.class,
                    () -> H2Import.importIfPresent(db(), hsqldb.dataSource(), this::h2File)).getMessage();

            assertTrue(message.contains("run: mv '" + db().resolve("lango.mv.db") + "' '" + db().resolve("lango.mv.db.imported") + "'"), message);
            assertTrue(message.contains("mkdir '" + db() + "'"), message);
            assertTrue(Files.exists(db().resolve("lango.mv.db")), "nothing is moved when the start is refused");
        }
    }

    @Test
    void sequenceRestartsAboveTheImportedIdsBlock() {
        assertEquals(100, H2Import.nextBlockTop(0));
        assertEquals(200, H2Import.nextBlockTop(137));
        assertEquals(250, H2Import.nextBlockTop(150));
    }
}
