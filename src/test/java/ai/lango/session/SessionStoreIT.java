package ai.lango.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.it.ItDeployments;
import ai.lango.it.ItEvents;
import ai.lango.turn.SessionRef;
import com.google.adk.events.Event;
import com.google.adk.sessions.Session;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store and the ADK session service on the real server and database. */
@ExtendWith(ArquillianExtension.class)
class SessionStoreIT {

    private static final String APP = "lango";
    private static final String USER = "store-it";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @Inject
    SessionStore store;

    @Inject
    SessionRows rows;

    @Inject
    JpaSessionService sessions;


    private static String newKey() {
        return "it-" + UUID.randomUUID();
    }

    private static SessionRef ref(String key) {
        return new SessionRef(APP, USER, key);
    }

    /** Ids are their user's own: the same id names two sessions, and neither user reaches the other's. */
    @Test
    void twoUsersEachHaveTheirOwnSessionUnderOneId() {
        String key = newKey();
        SessionRef ann = new SessionRef(APP, "ann-" + UUID.randomUUID(), key);
        SessionRef bob = new SessionRef(APP, "bob-" + UUID.randomUUID(), key);
        store.create(ann, Map.of("owner", "ann"));
        store.create(bob, Map.of("owner", "bob"));
        store.append(ann, text("ann's secret"), StateDelta.NONE, Instant.now());

        assertEquals(List.of("ann's secret"), store.messages(ann).stream().map(Message::content).toList());
        assertTrue(store.messages(bob).isEmpty());
        assertEquals("bob", store.state(bob, "owner").orElseThrow());
        assertThrows(SessionExistsException.class, () -> store.create(ann, Map.of()));
        assertEquals(2, store.withKey(key).size());

        assertTrue(store.delete(bob));
        assertTrue(store.find(bob).isEmpty());
        assertEquals(List.of("ann's secret"), store.messages(ann).stream().map(Message::content).toList());
        assertFalse(store.delete(bob));
    }

    @Test
    void tenConcurrentGetsOfOneNewIdYieldOneSession() throws Exception {
        String key = newKey();
        String user = "race-" + UUID.randomUUID();
        ManagedExecutorService executor = InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Session>> results = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            results.add(executor.submit(() -> {
                start.await();
                return sessions.getSession(APP, user, key, Optional.empty()).blockingGet();
            }));
        }
        start.countDown();
        Set<String> ids = new HashSet<>();
        for (Future<Session> result : results) {
            ids.add(result.get(60, TimeUnit.SECONDS).id());
        }
        assertEquals(Set.of(key), ids);
        assertEquals(1, store.list(APP, user).size());
    }

    @Test
    void historyViewIsCutToTheTokenBudgetNewestFirst() {
        String key = newKey();
        Session session = sessions.createSession(APP, USER, null, key).blockingGet();
        String text = "x".repeat(3996); // + 4 digits: 4000 chars = 1000 tokens + 4 per message
        int stored = 100;
        for (int i = 0; i < stored; i++) {
            Event event = i % 2 == 0
                    ? ItEvents.user("u" + i, 1_000_000L + i, text + String.format("%04d", i))
                    : ItEvents.model("m" + i, 1_000_000L + i, text + String.format("%04d", i), Map.of());
            sessions.appendEvent(session, event).blockingGet();
        }
        List<Message> cut = store.history(ref(key), 2100);
        assertEquals(2, cut.size());
        assertTrue(cut.get(1).content().endsWith("0099"));

        Session view = sessions.getSession(APP, USER, key, Optional.empty()).blockingGet();
        // The budget follows the configured model's family (the ITs configure gpt-4o-mini: 64000);
        // a cut history opens with a user message, so an oldest fitting answer is left out too.
        int fits = sessions.tokenBudget() / 1004;
        boolean oldestFittingIsTheModels = (stored - fits) % 2 == 1;
        assertEquals(oldestFittingIsTheModels ? fits - 1 : fits, view.events().size());
        assertEquals("user", view.events().get(0).author());
        assertTrue(view.events().size() < stored);
        assertEquals("m99", view.events().get(view.events().size() - 1).id());
        assertEquals(stored, store.messages(ref(key)).size());
    }

    @Test
    void stateGetSetAndAllRoundTripThroughJson() {
        String key = newKey();
        store.create(ref(key), Map.of("lang", "en"));
        putState(key, "prefs", Map.of("theme", "dark", "sizes", List.of(1, 2)));
        putState(key, "count", 3);

        assertEquals(Optional.of(Map.of("theme", "dark", "sizes", List.of(1, 2))), store.state(ref(key), "prefs"));
        assertEquals(Map.of("lang", "en", "count", 3, "prefs", Map.of("theme", "dark", "sizes", List.of(1, 2))),
                store.state(ref(key)));
        putState(key, "lang", StateDelta.REMOVED);
        assertFalse(store.state(ref(key)).containsKey("lang"));
    }

    @Test
    void sessionPastItsTtlIsRenewedEmptyOnAccess() {
        String key = newKey();
        Session session = sessions.createSession(APP, USER, null, key).blockingGet();
        sessions.appendEvent(session, ItEvents.model("old", 1_000L, "from long ago", Map.of("topic", "old"))).blockingGet();

        StoredSession renewed = rows.findRenewing(ref(key), Duration.ofMinutes(1));

        assertTrue(store.messages(ref(key)).isEmpty());
        assertTrue(renewed.state().isEmpty());
        assertTrue(renewed.createdAt().isAfter(Instant.ofEpochMilli(1_000L)));
    }

    @Test
    void readingAnUnknownSessionNeverCreatesIt() {
        String key = newKey();
        assertTrue(store.find(ref(key)).isEmpty());
        assertTrue(store.find(ref(key)).isEmpty());
    }

    @Test
    void sessionKeyLongerThanTheColumnIsRefusedAndNothingIsWritten() {
        String key = "k".repeat(SessionEntity.KEY_LENGTH + 1);
        String user = "long-" + UUID.randomUUID();
        InvalidSessionKeyException error = assertThrows(InvalidSessionKeyException.class,
                () -> sessions.getSession(APP, user, key, Optional.empty()).blockingGet());
        assertTrue(error.getMessage().contains("at most 255"), error.getMessage());
        assertTrue(store.list(APP, user).isEmpty());
    }

    @Test
    void failedAppendWritesNeitherMessageNorState() {
        String key = newKey();
        Session session = sessions.createSession(APP, USER, null, key).blockingGet();
        Event tooLongAuthor = ItEvents.model("bad", 5_000L, "never stored", Map.of("half", "written"));
        tooLongAuthor.setAuthor("a".repeat(300));

        assertThrows(RuntimeException.class, () -> sessions.appendEvent(session, tooLongAuthor).blockingGet());

        assertTrue(store.messages(ref(key)).isEmpty());
        assertFalse(store.state(ref(key)).containsKey("half"));
        assertTrue(session.events().isEmpty(), "memory is updated only after the write is durable");
    }

    @Test
    void eventWithNeitherContentNorStateIsANoOp() {
        String key = newKey();
        Session session = sessions.createSession(APP, USER, null, key).blockingGet();
        Event empty = Event.builder().id("empty").invocationId("i").author("lango-agent").timestamp(7L).build();

        sessions.appendEvent(session, empty).blockingGet();

        assertTrue(store.messages(ref(key)).isEmpty());
        assertTrue(session.events().isEmpty());
    }

    @Test
    void eventWithoutAuthorIsStoredWithOneFromItsRole() {
        String key = newKey();
        Session session = sessions.createSession(APP, USER, null, key).blockingGet();
        Event anonymous = ItEvents.user("anon", 9L, "who am I");
        anonymous.setAuthor(null);

        sessions.appendEvent(session, anonymous).blockingGet();

        assertEquals("user", store.messages(ref(key)).get(0).author());
    }

    /** Group commit on the real database: many sessions appending at once, nothing lost, each in order. */
    @Test
    void twentySessionsAppendingAtOnceKeepEveryMessageInOrder() throws Exception {
        ManagedExecutorService executor = InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
        List<String> keys = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            String key = newKey();
            store.getOrCreate(ref(key));
            keys.add(key);
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> sessionsDone = new ArrayList<>();
        for (String key : keys) {
            sessionsDone.add(executor.submit(() -> {
                start.await();
                for (int i = 0; i < 10; i++) {
                    store.append(ref(key), text("message " + i), StateDelta.NONE, Instant.now());
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> done : sessionsDone) {
            done.get(120, TimeUnit.SECONDS);
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add("message " + i);
        }
        for (String key : keys) {
            assertEquals(expected, store.messages(ref(key)).stream().map(Message::content).toList(), key);
        }
    }

    /** Another server deleted the session (and perhaps made a new one under its key); this store was not told. */
    @Test
    void anAppendAfterTheSessionWasReplacedElsewhereLandsInTheNewSessionOrFails() throws Exception {
        String key = newKey();
        store.getOrCreate(ref(key));
        store.append(ref(key), text("one"), StateDelta.NONE, Instant.now());
        deleteBehindTheStoresBack(key);
        store.create(ref(key), Map.of());

        store.append(ref(key), text("two"), StateDelta.NONE, Instant.now());
        assertEquals(List.of("two"), store.messages(ref(key)).stream().map(Message::content).toList());

        deleteBehindTheStoresBack(key);
        assertThrows(UnknownSessionException.class, () -> store.append(ref(key), text("three"), StateDelta.NONE, Instant.now()));
        assertTrue(store.find(ref(key)).isEmpty());
    }

    private static Message text(String content) {
        return new Message("user", content, Instant.now(), "user", List.of());
    }

    private static void deleteBehindTheStoresBack(String key) throws Exception {
        javax.sql.DataSource data = InitialContext.doLookup("jdbc/lango");
        try (var connection = data.getConnection();
             var delete = connection.prepareStatement("DELETE FROM lango_sessions WHERE session_key = ?")) {
            delete.setString(1, key);
            assertEquals(1, delete.executeUpdate());
        }
    }

    /** One value of the session's state set (or removed) by a state-only append, as the runner's events do. */
    private void putState(String key, String name, Object value) {
        store.append(ref(key), null, new StateDelta(Map.of(name, value), Map.of(), Map.of()), java.time.Instant.now());
    }
}
