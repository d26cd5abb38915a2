package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Scheduled turns on two servers sharing PostgreSQL (issue 60): each fire of a schedule every two seconds runs one turn
 * (one stored, marked question per due time, heard on one server's sockets), on whichever server is alive after the other
 * is killed; a claim whose server died before the turn started is taken over and run; a deleted schedule stops; a fire
 * missed while both servers were down runs once when they come back, not once per missed time.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.POSTGRESQL_TAG)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchedulesScaleOutIT {

    /** This class's database and ports (19300–19319 are this test's). */
    static final String GROUP = "schedules";
    static final int PORT_A = 19300;
    static final int PORT_B = 19301;
    static final int FAKE_PORT = 19302;
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** "[Scheduled 2030-01-01T10:00:00Z] message": the due time each stored question names. */
    private static final Pattern MARK = Pattern.compile("^user: \\[Scheduled ([^\\]]+)\\] (.*)$");

    private static FakeLlmServer fake;
    private static LibertyServer a;
    private static LibertyServer b;

    @BeforeAll
    static void startTwoServers() throws Exception {
        ItDatabase.POSTGRESQL.assumeAvailable();
        fake = FakeLlmServer.start(FAKE_PORT);
        fake.route(r -> true, r -> Reply.delayed(Duration.ofMillis(200), Reply.openAiText("done")));
        String name = ItDatabase.POSTGRESQL.server("sched");
        a = server(name + "-a", PORT_A);
        b = server(name + "-b", PORT_B);
        a.start();
        b.start();
    }

    private static LibertyServer server(String name, int port) throws Exception {
        Map<String, String> environment = ItDatabase.POSTGRESQL.environment(Path.of("target", "it-data-" + name), port, GROUP);
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + FAKE_PORT + "/v1");
        environment.put("LANGO_SESSION_LEASE_TIMEOUT", "PT5S");
        environment.put("LANGO_SCHEDULES_MIN_INTERVAL", "PT1S");
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

    private static HttpResponse<String> call(LibertyServer server, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String create(LibertyServer server, String body) throws Exception {
        HttpResponse<String> created = call(server, "POST", "api/schedules", body);
        assertEquals(201, created.statusCode(), created.body());
        return TestJson.MAPPER.readTree(created.body()).path("id").asText();
    }

    /** The due times of the session's stored scheduled questions, in order (one per turn). */
    private static List<Instant> fires(LibertyServer server, String session) throws Exception {
        HttpResponse<String> got = call(server, "GET", "api/apps/lango/users/user/sessions/" + session, null);
        if (got.statusCode() == 404) {
            return List.of();
        }
        assertEquals(200, got.statusCode(), got.body());
        List<Instant> due = new ArrayList<>();
        for (JsonNode event : TestJson.MAPPER.readTree(got.body()).path("events")) {
            for (JsonNode part : event.path("content").path("parts")) {
                if (part.has("text") && "user".equals(event.path("author").asText()) && !event.path("partial").asBoolean(false)) {
                    Matcher marked = MARK.matcher("user: " + part.path("text").asText());
                    if (marked.matches()) {
                        due.add(Instant.parse(marked.group(1)));
                    }
                }
            }
        }
        return due;
    }

    private static void assertOncePerFire(List<Instant> fires) {
        Set<Instant> distinct = new HashSet<>(fires);
        assertEquals(distinct.size(), fires.size(), "no two turns for one fire: " + fires);
    }

    private static void waitFor(Duration limit, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "within " + limit + ": " + what);
            Thread.sleep(250);
        }
    }

    private static BooleanSupplier firesAtLeast(LibertyServer server, String session, int count) {
        return () -> {
            try {
                return fires(server, session).size() >= count;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** Counts the agent.scheduled frames of a socket, read on a thread of its own. */
    private static List<String> heard(ItSocket socket) {
        List<String> heard = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                while (true) {
                    JsonNode frame = socket.next();
                    if ("agent.scheduled".equals(frame.path("event").asText())) {
                        heard.add(frame.path("payload").path("message").asText());
                    }
                }
            } catch (Throwable ended) {
                // the socket closed, or nothing more came
            }
        });
        reader.setDaemon(true);
        reader.start();
        return heard;
    }

    @Test
    @Order(1)
    void eachFireRunsOnceOnOneServerAndGoesOnAfterThatServerIsKilledUntilDeleted() throws Exception {
        String session = "pulse-" + RUN;
        List<String> heardOnA = heard(ItSocket.connect(a.base().toURL()));
        List<String> heardOnB = heard(ItSocket.connect(b.base().toURL()));
        String id = create(a, "{\"sessionKey\":\"" + session + "\",\"message\":\"pulse " + RUN + "\",\"every\":\"PT2S\"}");
        waitFor(Duration.ofSeconds(30), firesAtLeast(a, session, 4), "four fires stored");
        List<Instant> before = fires(b, session);
        assertOncePerFire(before);
        waitFor(Duration.ofSeconds(10), () -> heardOnA.size() + heardOnB.size() >= before.size(), "the fires heard");
        Set<String> heardMessages = new HashSet<>(heardOnA);
        heardMessages.addAll(heardOnB);
        assertEquals(heardOnA.size() + heardOnB.size(), heardMessages.size(),
                "each fire heard on the sockets of one server only: " + heardOnA + " / " + heardOnB);

        a.kill();
        int killedAt = fires(b, session).size();
        waitFor(Duration.ofSeconds(40), firesAtLeast(b, session, killedAt + 4), "fires go on on B after A was killed");
        List<Instant> after = fires(b, session);
        assertOncePerFire(after);
        for (int i = 1; i < after.size(); i++) {
            assertTrue(after.get(i).isAfter(after.get(i - 1)), "fires in order: " + after);
        }

        assertEquals(204, call(b, "DELETE", "api/schedules/" + id, null).statusCode());
        Thread.sleep(2000); // a fire claimed before the delete may still end
        int deleted = fires(b, session).size();
        Thread.sleep(5000);
        assertEquals(deleted, fires(b, session).size(), "a deleted schedule fires no more");
        a.start();
    }

    @Test
    @Order(2)
    void aClaimWhoseServerDiedBeforeItsTurnStartedIsRunByAnother() throws Exception {
        String session = "orphan-" + RUN;
        String id = create(b, "{\"sessionKey\":\"" + session + "\",\"message\":\"orphan " + RUN + "\",\"every\":\"PT1H\"}");
        Instant fire = Instant.now().minusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        // What a server leaves when it dies right after its claim: the fire claimed, renewed last a minute ago, no turn.
        try (Connection db = DriverManager.getConnection(ItDatabase.postgresUrl(GROUP), System.getenv("LANGO_TEST_POSTGRES_USER"), "");
             PreparedStatement claim = db.prepareStatement("UPDATE lango_schedules SET claim_fire = ?, claimed_by = ?, claimed_at = ?,"
                     + " last_fire = ? WHERE id = ?")) {
            claim.setLong(1, fire.toEpochMilli());
            claim.setString(2, "a-server-that-died/" + RUN);
            claim.setLong(3, Instant.now().minusSeconds(60).toEpochMilli());
            claim.setLong(4, fire.toEpochMilli());
            claim.setString(5, id);
            assertEquals(1, claim.executeUpdate());
        }
        waitFor(Duration.ofSeconds(20), firesAtLeast(b, session, 1), "another server ran the orphaned fire");
        Thread.sleep(3000);
        assertEquals(List.of(fire), fires(a, session), "run once, as the fire it was");
        JsonNode schedule = TestJson.MAPPER.readTree(call(a, "GET", "api/schedules/" + id, null).body());
        assertTrue(schedule.path("lastResult").asText().startsWith("answered: "), schedule.toString());
        assertEquals(204, call(a, "DELETE", "api/schedules/" + id, null).statusCode());
    }

    @Test
    @Order(3)
    void aFireMissedWhileBothServersWereDownRunsOnceWhenTheyComeBack() throws Exception {
        String session = "missed-" + RUN;
        String id = create(a, "{\"sessionKey\":\"" + session + "\",\"message\":\"missed " + RUN + "\",\"every\":\"PT4S\"}");
        waitFor(Duration.ofSeconds(20), firesAtLeast(a, session, 1), "a first fire");
        int first = fires(a, session).size();
        waitFor(Duration.ofSeconds(20), firesAtLeast(a, session, first + 1), "the next fire");
        Thread.sleep(1000); // its turn (200 ms of model) ends; the next fire is three seconds away
        Instant down = fires(a, session).stream().max(Instant::compareTo).orElseThrow();
        a.kill();
        b.kill();
        Thread.sleep(12_000); // about three fires come due while no server runs
        Instant restarting = Instant.now();
        b.start();
        a.start();
        waitFor(Duration.ofSeconds(30), () -> {
            try {
                return fires(b, session).stream().anyMatch(due -> due.isAfter(restarting));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "fires go on after the restart");
        List<Instant> fires = fires(b, session);
        assertOncePerFire(fires);
        long missedRun = fires.stream().filter(due -> due.isAfter(down) && due.isBefore(restarting)).count();
        assertEquals(1, missedRun, "the fires missed while both were down ran once: " + fires + " (down " + down + ", back "
                + restarting + ")");
        assertEquals(204, call(b, "DELETE", "api/schedules/" + id, null).statusCode());
    }
}
