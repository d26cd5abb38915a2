package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Two Lango servers on one PostgreSQL database, as the README says to run them: copies of one
 * server directory started with Liberty's {@code server start}, on their own ports, with the same
 * configuration. A session continues on either; concurrent turns of one session on both never
 * interleave; when one server is killed mid-turn the other takes the session once its lease expires.
 * PostgreSQL only (the embedded database is one server's alone), beside the other tests.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.POSTGRESQL_TAG)
@Execution(ExecutionMode.CONCURRENT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleOutIT {

    /** The database of this class's servers, theirs alone. */
    static final String GROUP = "scale";
    static final Duration LEASE = Duration.ofSeconds(5);
    /** The model's time for a turn that keeps its session while a turn on the other server waits. */
    static final Duration HELD = Duration.ofSeconds(3);
    /** The PostgreSQL data source's maxPoolSize (liberty/db/postgresql.xml). */
    static final int POOL_SIZE = 20;
    static final String POOL_QUESTION = "pool ";
    /**
     * Long enough that all 30 turns reach the model before the first answer even on a loaded machine
     * (this runs beside the other tests: 35 s seen); were a waiting turn to hold its connection, the
     * last ten would wait for the first answers, this long.
     */
    static final Duration POOL_MODEL_TIME = Duration.ofSeconds(60);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static FakeLlmServer fake;
    /** When the fake model received each question (System.nanoTime). */
    private static final Map<String, Long> ARRIVED = new java.util.concurrent.ConcurrentHashMap<>();
    private static LibertyServer a;
    private static LibertyServer b;

    @BeforeAll
    static void startTwoServers() throws Exception {
        ItDatabase.POSTGRESQL.assumeAvailable();
        int fakePort = ItPorts.FAKE_LLM + 3;
        fake = FakeLlmServer.start(fakePort);
        // Every answer names the question, so the stored conversation shows which answer belongs to which.
        fake.route(r -> true, r -> {
            ARRIVED.put(lastUserText(r), System.nanoTime());
            return Reply.delayed(modelTime(lastUserText(r)), Reply.openAiText("answer to " + lastUserText(r)));
        });
        String name = ItDatabase.POSTGRESQL.server("scale");
        a = server(name + "-a", ItPorts.HTTP + 30, fakePort);
        b = server(name + "-b", ItPorts.HTTP + 31, fakePort);
        a.start();
        b.start();
    }

    /** A server of its own on PostgreSQL, started with the same settings as the other. */
    private static LibertyServer server(String name, int port, int fakePort) throws IOException {
        Map<String, String> environment = ItDatabase.POSTGRESQL.environment(Path.of("target", "it-data-" + name), port, GROUP);
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_SESSION_LEASE_TIMEOUT", LEASE.toString());
        // The fake model says nothing for POOL_MODEL_TIME, longer than the default read timeout allows.
        environment.put("LANGO_PROVIDER_READ_TIMEOUT", POOL_MODEL_TIME.multipliedBy(3).toString());
        environment.put("LANGO_A2A_ENABLED", "true");
        return LibertyServer.copyOf(name, port, environment);
    }

    @AfterAll
    static void stopServers() {
        for (AutoCloseable closeable : new AutoCloseable[] {a, b, fake}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                // closing what is left; the test result stands
            }
        }
    }

    /** The questions asked once already: a turn resumed after its server was killed asks again. */
    private static final java.util.Set<String> ASKED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * How long the fake model takes: long for the turn killed under it (the first time it is asked, for a turn that
     * is resumed), a while for the pool test, else short.
     */
    private static Duration modelTime(String question) {
        if (question.startsWith("resume")) {
            return ASKED.add(question) ? Duration.ofSeconds(60) : Duration.ofMillis(150);
        }
        return question.startsWith("slow") ? Duration.ofSeconds(60)
                : question.startsWith(POOL_QUESTION) ? POOL_MODEL_TIME
                : question.startsWith("busy") ? Duration.ofMillis(300)
                : question.startsWith("held") ? HELD : Duration.ofMillis(150);
    }

    private static String lastUserText(FakeLlmServer.Recorded request) {
        String text = "";
        if (request.json() != null) {
            for (JsonNode message : request.json().path("messages")) {
                if ("user".equals(message.path("role").asText())) {
                    text = message.path("content").asText();
                }
            }
        }
        return text;
    }

    private static HttpResponse<String> run(LibertyServer server, String session, String text) throws Exception {
        String body = TestJson.runRequest("user", session, text);
        return HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/run")).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(2)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The session's texts as stored, in order: "user: …" and "model: …". */
    private static List<String> conversation(LibertyServer server, String session) throws Exception {
        HttpResponse<String> got = HTTP.send(HttpRequest.newBuilder(server.base().resolve(
                "api/apps/lango/users/user/sessions/" + session)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, got.statusCode(), got.body());
        return TestJson.conversation(TestJson.MAPPER.readTree(got.body()).path("events"));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(0)
    void aSecretStoredOnOneServerIsMaskedOnTheOtherWithinSeconds() throws Exception {
        String name = "scale-" + UUID.randomUUID().toString().substring(0, 8);
        String value = "cluster-value-" + UUID.randomUUID();
        assertEquals(201, storeSecret(a, name, value));
        String session = "scale-" + UUID.randomUUID();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        HttpResponse<String> answer;
        do {
            answer = run(b, session, "is " + value + " masked");
        } while (answer.body().contains(value) && System.nanoTime() < deadline);
        assertTrue(answer.body().contains("answer to is [SECRET:" + name + "] masked"), answer.body());
        assertTrue(fake.requests().stream().noneMatch(r -> r.body().contains(value)), "no model request carried it");
        assertTrue(HTTP.send(HttpRequest.newBuilder(b.base().resolve("api/admin/secrets")).build(),
                HttpResponse.BodyHandlers.ofString()).body().contains(name), "B lists what A stored");
    }

    private static int storeSecret(LibertyServer server, String name, String value) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/admin/secrets/" + name))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"value\":\"" + value + "\"}")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static JsonNode a2a(LibertyServer server, String method, String params) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.base().resolve("api/a2a"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return TestJson.MAPPER.readTree(response.body());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(1)
    void anA2aTaskStartedOnOneServerIsReadListedAndCanceledOnTheOther() throws Exception {
        String context = "scale-a2a-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode started = a2a(a, "SendMessage", "{\"message\":{\"role\":\"ROLE_USER\",\"messageId\":\"m1\",\"contextId\":\""
                + context + "\",\"parts\":[{\"text\":\"slow " + context + "\"}]},\"configuration\":{\"returnImmediately\":true}}");
        String id = started.at("/result/task/id").asText();
        assertTrue(started.at("/result/task/status/state").asText().matches("TASK_STATE_(SUBMITTED|WORKING)"), started.toString());

        JsonNode onB = a2a(b, "GetTask", "{\"id\":\"" + id + "\"}");
        assertTrue(onB.at("/result/status/state").asText().matches("TASK_STATE_(SUBMITTED|WORKING)"), "B reads A's task: " + onB);
        assertTrue(a2a(b, "ListTasks", "{\"contextId\":\"" + context + "\"}").toString().contains(id), "and lists it");

        long asked = System.nanoTime();
        JsonNode canceled = a2a(b, "CancelTask", "{\"id\":\"" + id + "\"}");
        assertEquals("TASK_STATE_CANCELED", canceled.at("/result/status/state").asText(),
                "B's cancel stops the turn running on A: " + canceled);
        assertTrue(System.nanoTime() - asked < Duration.ofSeconds(10).toNanos(), "within seconds, not the model's 60");
        assertEquals("TASK_STATE_CANCELED", a2a(a, "GetTask", "{\"id\":\"" + id + "\"}").at("/result/status/state").asText());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(1)
    void aBudgetReachedOnOneServerRefusesTheNextTurnOnTheOther() throws Exception {
        String user = "budget-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> set = HTTP.send(HttpRequest.newBuilder(a.base().resolve("api/admin/users/" + user))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"tokensPerDay\":10}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, set.statusCode(), set.body());
        String body = TestJson.runRequest(user, "s-" + user, "spend on A " + user);
        HttpResponse<String> spent = HTTP.send(HttpRequest.newBuilder(a.base().resolve("api/run")).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, spent.statusCode(), spent.body()); // the fake model reports 12 + 1 tokens: past the 10
        String again = TestJson.runRequest(user, "s-" + user, "and more on B " + user);
        HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(b.base().resolve("api/run")).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString(again)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(429, refused.statusCode(), "B counts what A spent: " + refused.body());
        assertTrue(refused.body().contains("budget_exceeded"), refused.body());
        assertTrue(fake.requests().stream().noneMatch(r -> r.body().contains("and more on B " + user)), "the model was not asked");
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(1)
    void aSessionContinuesOnTheOtherServer() throws Exception {
        String session = "scale-" + UUID.randomUUID();
        assertEquals(200, run(a, session, "first on A").statusCode());
        HttpResponse<String> second = run(b, session, "second on B");
        assertEquals(200, second.statusCode(), second.body());

        FakeLlmServer.Recorded toB = fake.requests().stream().filter(r -> lastUserText(r).equals("second on B"))
                .findFirst().orElseThrow();
        assertTrue(toB.body().contains("first on A") && toB.body().contains("answer to first on A"),
                "B's model request carries A's turn: " + toB.body());
        assertEquals(List.of("user: first on A", "model: answer to first on A", "user: second on B",
                "model: answer to second on B"), conversation(b, session));
        assertEquals(conversation(b, session), conversation(a, session));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(2)
    void concurrentTurnsOfOneSessionOnBothServersNeverInterleave() throws Exception {
        String session = "scale-" + UUID.randomUUID();
        assertEquals(200, run(a, session, "open").statusCode());
        List<CompletableFuture<HttpResponse<String>>> turns = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            LibertyServer server = i % 2 == 0 ? a : b;
            String text = "concurrent " + i;
            turns.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return run(server, session, text);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<HttpResponse<String>> turn : turns) {
            HttpResponse<String> response = turn.get();
            assertEquals(200, response.statusCode(), response.body());
        }
        List<String> stored = conversation(a, session);
        assertEquals(14, stored.size(), stored.toString());
        List<String> questions = new ArrayList<>();
        for (int i = 0; i < stored.size(); i += 2) {
            String question = stored.get(i);
            assertTrue(question.startsWith("user: "), stored.toString());
            String text = question.substring("user: ".length());
            assertEquals("model: answer to " + text, stored.get(i + 1), "question and answer pairs in order: " + stored);
            questions.add(text);
        }
        assertEquals(7, questions.stream().distinct().count(), "each question once: " + questions);
    }

    /**
     * Waiting across servers is fair: while three clients keep a session busy on A (each turn queued
     * right behind the last, so A could take the session again within a millisecond of giving it
     * up), a turn sent to B runs as soon as the turn running when it came ends, not after A's queue.
     */
    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(3)
    void aTurnWaitingOnOneServerIsNotStarvedByBusyTurnsOnTheOther() throws Exception {
        String session = "scale-" + UUID.randomUUID();
        assertEquals(200, run(a, session, "open").statusCode());
        ExecutorService clients = Executors.newFixedThreadPool(3);
        try {
            List<Future<Integer>> busy = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int client = c;
                busy.add(clients.submit(() -> {
                    int ok = 0;
                    for (int i = 0; i < 3; i++) {
                        ok += run(a, session, "busy " + client + "-" + i).statusCode() == 200 ? 1 : 0;
                    }
                    return ok;
                }));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (fake.requests().stream().noneMatch(r -> lastUserText(r).startsWith("busy"))) {
                assertTrue(System.nanoTime() < deadline, "A's first busy turn reached the model");
                Thread.sleep(10);
            }
            HttpResponse<String> fromB = run(b, session, "from B");
            assertEquals(200, fromB.statusCode(), fromB.body());
            for (Future<Integer> client : busy) {
                assertEquals(3, client.get());
            }
        } finally {
            clients.shutdownNow();
        }
        List<String> stored = conversation(a, session);
        assertEquals(22, stored.size(), stored.toString());
        for (int i = 0; i < stored.size(); i += 2) {
            assertEquals(stored.get(i).replace("user: ", "model: answer to "), stored.get(i + 1), "pairs in order: " + stored);
        }
        // "open", the busy turn B came during, then B's (one more turn of A's at most, had B's first poll come late).
        int position = stored.indexOf("user: from B") / 2;
        assertTrue(position <= 3, "B's turn came " + position + " turns after the session opened: " + stored);
    }

    /**
     * A turn waiting for the model holds no database connection: more turns than the server's pool
     * has connections all reach the model at once, and while they wait PostgreSQL sees no
     * connection of theirs in a transaction. (Held for the model call, the pool would let only
     * {@value #POOL_SIZE} through, and the rest would reach the model one model-time later.)
     */
    /**
     * A turn waiting on B for a session A holds does not poll for it: A's release notifies B
     * (LISTEN/NOTIFY), and B's turn reaches the model within moments of A's answer. B's own fallback
     * asks only every 2 s, so without the notification it would come about a second later here.
     */
    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(4)
    void aTurnWaitingForASessionHeldOnTheOtherServerIsWokenWhenItIsReleased() throws Exception {
        List<Long> delays = new ArrayList<>();
        for (int trial = 0; trial < 3; trial++) {
            String session = "scale-" + UUID.randomUUID();
            String held = "held " + session;
            String woken = "woken " + session;
            assertEquals(200, run(a, session, "open").statusCode());
            long[] answeredOnA = new long[1];
            CompletableFuture<Void> onA = CompletableFuture.runAsync(() -> {
                try {
                    assertEquals(200, run(a, session, held).statusCode());
                    answeredOnA[0] = System.nanoTime();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!ARRIVED.containsKey(held)) {
                assertTrue(System.nanoTime() < deadline, "A's turn reached the model");
                Thread.sleep(10);
            }
            HttpResponse<String> fromB = run(b, session, woken);
            assertEquals(200, fromB.statusCode(), fromB.body());
            onA.join();
            assertEquals(List.of("user: open", "model: answer to open", "user: " + held, "model: answer to " + held,
                    "user: " + woken, "model: answer to " + woken), conversation(b, session));
            // A releases the session before its answer goes out, so this is an upper bound of B's delay.
            delays.add(Duration.ofNanos(ARRIVED.get(woken) - answeredOnA[0]).toMillis());
        }
        System.out.println("ScaleOutIT: B's turn reached the model " + delays + " ms after A's answer");
        assertTrue(delays.stream().mapToLong(Long::longValue).min().orElseThrow() < 500,
                "B was woken by A's release, not by its own fallback: " + delays + " ms");
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(5)
    void turnsWaitingForTheModelHoldNoDatabaseConnection() throws Exception {
        int turns = POOL_SIZE + 10;
        ExecutorService clients = Executors.newFixedThreadPool(turns);
        try {
            poolTurns(turns, clients);
        } finally {
            clients.shutdownNow();
        }
    }

    private void poolTurns(int turns, ExecutorService clients) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            String session = "scale-pool-" + i + "-" + UUID.randomUUID();
            String text = POOL_QUESTION + i;
            running.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return run(a, session, text);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, clients));
        }
        long firstArrival = 0;
        long deadline = System.nanoTime() + POOL_MODEL_TIME.multipliedBy(2).toNanos();
        while (poolRequests() < turns) {
            if (firstArrival == 0 && poolRequests() > 0) {
                firstArrival = System.nanoTime();
            }
            assertTrue(System.nanoTime() < deadline, "only " + poolRequests() + " of " + turns + " turns reached the model");
            Thread.sleep(20);
        }
        Duration spread = Duration.ofNanos(System.nanoTime() - (firstArrival == 0 ? System.nanoTime() : firstArrival));
        // A user's message commits while the model is called (docs/contract.md), so the last turns'
        // commits may still be under way as their requests arrive; once they are in, no turn waiting
        // for the model holds a connection in a transaction.
        long inTransaction = connectionsInTransaction();
        for (long settled = System.nanoTime() + Duration.ofSeconds(5).toNanos(); inTransaction > 0 && System.nanoTime() < settled; ) {
            Thread.sleep(50);
            inTransaction = connectionsInTransaction();
        }
        assertTrue(spread.compareTo(POOL_MODEL_TIME) < 0,
                "all " + turns + " turns reached the model within " + spread + ", before any answer came back");
        assertTrue(running.stream().noneMatch(CompletableFuture::isDone), "every turn still waits for the model");
        assertEquals(0, inTransaction, "connections in a transaction while every turn waits for the model");
        System.out.printf("ScaleOutIT: %d turns on a pool of %d all reached the model within %d ms;"
                + " connections in a transaction meanwhile: %d%n", turns, POOL_SIZE, spread.toMillis(), inTransaction);
        for (CompletableFuture<HttpResponse<String>> turn : running) {
            HttpResponse<String> response = turn.get();
            assertEquals(200, response.statusCode(), response.body());
        }
    }

    private static long poolRequests() {
        return fake.requests().stream().filter(r -> lastUserText(r).startsWith(POOL_QUESTION)).count();
    }

    /** Connections to this database, other than the one asking, that are inside a transaction. */
    private static long connectionsInTransaction() throws Exception {
        try (Connection connection = DriverManager.getConnection(ItDatabase.postgresUrl(GROUP),
                System.getenv("LANGO_TEST_POSTGRES_USER"), "");
             var statement = connection.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND pid <> pg_backend_pid() AND state IN ('idle in transaction', 'idle in transaction (aborted)')");
             var rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(6)
    void theTurnOfAKilledServerIsFinishedByTheOtherWithinTheLeasePlusTenSeconds() throws Exception {
        String session = "scale-resume-" + UUID.randomUUID();
        String question = "resume " + session;
        CompletableFuture<Void> cut = CompletableFuture.runAsync(() -> {
            try {
                run(a, session, question);
            } catch (Exception expected) {
                // A is killed under it
            }
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (fake.requests().stream().noneMatch(r -> lastUserText(r).equals(question))) {
            assertTrue(System.nanoTime() < deadline, "A never called the model");
            Thread.sleep(50);
        }
        a.kill();
        long killed = System.nanoTime();
        List<String> expected = List.of("user: " + question, "model: answer to " + question);
        List<String> stored = conversation(b, session);
        while (!stored.equals(expected) && System.nanoTime() - killed < LEASE.plusSeconds(30).toNanos()) {
            Thread.sleep(100);
            stored = conversation(b, session);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - killed);
        assertEquals(expected, stored, "B finished the turn A was killed in, its answer stored once");
        assertTrue(took.compareTo(LEASE.plusSeconds(10)) < 0, "B finished it " + took + " after the kill");
        System.out.printf("ScaleOutIT: the turn of the killed server was finished by the other %d ms after the kill"
                + " (lease %d s)%n", took.toMillis(), LEASE.toSeconds());
        cut.cancel(true);
        a.start(); // for the next test
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(7)
    void whenAServerIsKilledMidTurnTheOtherTakesTheSessionWithinTheLease() throws Exception {
        String session = "scale-" + UUID.randomUUID();
        assertEquals(200, run(a, session, "before").statusCode());
        CompletableFuture<Void> slow = CompletableFuture.runAsync(() -> {
            try {
                run(a, session, "slow on A");
            } catch (Exception expected) {
                // A is killed under it
            }
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (fake.requests().stream().noneMatch(r -> lastUserText(r).equals("slow on A"))) {
            assertTrue(System.nanoTime() < deadline, "A never called the model");
            Thread.sleep(50);
        }
        // Secrets are being stored on A when it is killed: each one acknowledged is whole afterwards.
        String prefix = "kill-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        java.util.Map<String, String> acknowledged = new java.util.concurrent.ConcurrentHashMap<>();
        CompletableFuture<Void> storing = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 1000; i++) {
                String value = "killed-store-" + UUID.randomUUID();
                try {
                    if (storeSecret(a, prefix + i, value) == 201) {
                        acknowledged.put(prefix + i, value);
                    }
                } catch (Exception killed) {
                    return;
                }
            }
        });
        while (acknowledged.size() < 3) {
            assertTrue(System.nanoTime() < deadline, "A stored no secret");
            Thread.sleep(20);
        }
        a.kill();
        storing.join();
        long killed = System.nanoTime();
        HttpResponse<String> after = run(b, session, "after the kill");
        Duration took = Duration.ofNanos(System.nanoTime() - killed);
        assertEquals(200, after.statusCode(), after.body());
        assertTrue(took.compareTo(LEASE.plusSeconds(10)) < 0, "B took the session after " + took);
        assertEquals(List.of("user: before", "model: answer to before", "user: slow on A", "user: after the kill",
                "model: answer to after the kill"), conversation(b, session), "the killed turn keeps its question only");
        slow.cancel(true);

        String listed = HTTP.send(HttpRequest.newBuilder(b.base().resolve("api/admin/secrets")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (java.util.Map.Entry<String, String> secret : acknowledged.entrySet()) {
            assertTrue(listed.contains("\"" + secret.getKey() + "\""), "an acknowledged store survived: " + secret.getKey());
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            HttpResponse<String> masked;
            do {
                masked = run(b, "scale-" + UUID.randomUUID(), "is " + secret.getValue() + " whole");
            } while (masked.body().contains(secret.getValue()) && System.nanoTime() < until);
            assertTrue(masked.body().contains("[SECRET:" + secret.getKey() + "]"), "B decrypts it: " + masked.body());
        }
    }

    @Test
    @Order(8)
    void aServerWithTheWrongPassphraseRefusesToStartAndSaysWhy() throws Exception {
        String name = ItDatabase.POSTGRESQL.server("scale") + "-wrong";
        Map<String, String> environment = ItDatabase.POSTGRESQL.environment(Path.of("target", "it-data-" + name), ItPorts.HTTP + 32, GROUP);
        environment.put("LANGO_SECURITY_PASSPHRASE", "not the cluster's passphrase");
        environment.put("LANGO_A2A_ENABLED", "false");
        LibertyServer.Ended ended = LibertyServer.copyOf(name, ItPorts.HTTP + 32, environment).runUntilExit(Duration.ofMinutes(4));
        assertEquals(1, ended.exit(), ended.output());
        assertTrue(ended.output().contains("wrong passphrase: lango.security.passphrase does not open the vault"), ended.output());
        assertFalse(ended.output().contains("CWWKO0219I"), "Liberty never opened its HTTP port");
        assertFalse(ended.output().contains("not the cluster's passphrase"), "the passphrase is not printed");
        assertEquals(200, run(b, "scale-" + UUID.randomUUID(), "still here").statusCode(), "the cluster never noticed");
    }
}
