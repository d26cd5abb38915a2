package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.turn.SessionRef;
import java.nio.file.Path;
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

    private static Message message(String role, String content) {
        return new Message(role, content, T, role.equals("user") ? "user" : "lango-agent", List.of(), null);
    }
}
