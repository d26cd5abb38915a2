package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scheduled turns on one server (issue 60): /api/schedules made, read, paused and deleted by their owner only, invalid
 * fields named; a schedule every two seconds fires turns of its owner whose answers are stored in the session, marked as
 * scheduled; over budget a fire is skipped and recorded; the agent's schedule_* tools act on the caller's own. Every
 * schedule a test makes is deleted after it, so no other test's model hears a fire.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag(ItDatabase.HSQLDB_TAG) // the claims across servers are SchedulesScaleOutIT's, on PostgreSQL
class SchedulesIT extends FakeLlmIT {

    static final String OPERATOR = "op-schedules-" + "0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-schedules.war"), "lango.auth.token=" + OPERATOR + "\n"
                + "lango.schedules.min-interval=PT1S\n" + "lango.schedules.max-per-user=4\n"
                + "lango.tools.exec.enabled=true\n" + "lango.security.approval.timeout=PT3S\n");
    }

    @ArquillianResource
    URL base;

    /** The schedules made by a test, deleted after it: (token, id). */
    private final List<String[]> made = new ArrayList<>();

    @AfterEach
    void deleteSchedules() throws Exception {
        ItCallers callers = new ItCallers(base, OPERATOR);
        for (String[] schedule : made) {
            callers.call("DELETE", "api/schedules/" + schedule[1], schedule[0], null);
        }
    }

    private HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
        return new ItCallers(base, OPERATOR).call(method, path, token, body);
    }

    private JsonNode create(String token, String body) throws Exception {
        HttpResponse<String> created = call("POST", "api/schedules", token, body);
        assertEquals(201, created.statusCode(), created.body());
        JsonNode schedule = TestJson.MAPPER.readTree(created.body());
        made.add(new String[] {token, schedule.path("id").asText()});
        return schedule;
    }

    private JsonNode get(String token, String id) throws Exception {
        HttpResponse<String> got = call("GET", "api/schedules/" + id, token, null);
        assertEquals(200, got.statusCode(), got.body());
        return TestJson.MAPPER.readTree(got.body());
    }

    private static void waitFor(Duration limit, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "within " + limit + ": " + what);
            Thread.sleep(200);
        }
    }

    private long asked(String text) {
        return fake.requests().stream().filter(FakeLlmServer.lastUserMessageContains(text)).count();
    }

    /** The session's texts as stored: "user: …" and "model: …". */
    private List<String> conversation(String token, String user, String session) throws Exception {
        HttpResponse<String> got = call("GET", "api/apps/lango/users/" + user + "/sessions/" + session, token, null);
        assertEquals(200, got.statusCode(), got.body());
        return TestJson.conversation(TestJson.MAPPER.readTree(got.body()).path("events"));
    }

    @Test
    void anOwnerMakesReadsPausesAndDeletesSchedulesAndNobodyElseSeesThem() throws Exception {
        ItCallers callers = new ItCallers(base, OPERATOR);
        String ann = "ann-" + RUN;
        String annToken = callers.issue(ann, false);
        String bobToken = callers.issue("bob-" + RUN, false);
        JsonNode made = create(annToken, "{\"sessionKey\":\"mornings\",\"message\":\"summarize the news\",\"cron\":\"0 7 * * MON-FRI\","
                + "\"zone\":\"Europe/Berlin\"}");
        String id = made.path("id").asText();
        Instant next = Instant.parse(made.path("next").asText());
        assertTrue(next.isAfter(Instant.now()), made.toString());
        assertEquals(7, next.atZone(java.time.ZoneId.of("Europe/Berlin")).getHour(), made.toString());
        assertEquals("0 7 * * MON-FRI", made.path("cron").asText());

        JsonNode listed = TestJson.MAPPER.readTree(call("GET", "api/schedules", annToken, null).body());
        assertEquals(1, listed.path("schedules").size(), listed.toString());
        assertEquals(id, listed.path("schedules").get(0).path("id").asText());
        assertEquals("summarize the news", get(annToken, id).path("message").asText());

        // another user's schedule is not found, whatever they do with it
        assertEquals(0, TestJson.MAPPER.readTree(call("GET", "api/schedules", bobToken, null).body()).path("schedules").size());
        assertEquals(404, call("GET", "api/schedules/" + id, bobToken, null).statusCode());
        assertEquals(404, call("PATCH", "api/schedules/" + id, bobToken, "{\"paused\":true}").statusCode());
        assertEquals(404, call("DELETE", "api/schedules/" + id, bobToken, null).statusCode());
        assertEquals(403, call("GET", "api/schedules?userId=" + ann, bobToken, null).statusCode());
        // an administrator sees it with ?userId=
        HttpResponse<String> asAdmin = call("GET", "api/schedules?userId=" + ann, OPERATOR, null);
        assertEquals(200, asAdmin.statusCode(), asAdmin.body());
        assertTrue(asAdmin.body().contains(id), asAdmin.body());

        // paused: no next time; resumed: the next time again
        JsonNode paused = TestJson.MAPPER.readTree(call("PATCH", "api/schedules/" + id, annToken, "{\"paused\":true}").body());
        assertTrue(paused.path("paused").asBoolean(), paused.toString());
        assertTrue(paused.path("next").isNull(), paused.toString());
        JsonNode resumed = TestJson.MAPPER.readTree(call("PATCH", "api/schedules/" + id, annToken, "{\"paused\":false}").body());
        assertFalse(resumed.path("paused").asBoolean());
        assertEquals(next.toString(), resumed.path("next").asText());
        assertEquals(400, call("PATCH", "api/schedules/" + id, annToken, "{\"paused\":\"yes\"}").statusCode());

        assertEquals(204, call("DELETE", "api/schedules/" + id, annToken, null).statusCode());
        assertEquals(404, call("GET", "api/schedules/" + id, annToken, null).statusCode());
    }

    @Test
    void invalidFieldsAreNamedAndTheLimitHolds() throws Exception {
        String token = new ItCallers(base, OPERATOR).issue("cal-" + RUN, false);
        String[][] invalid = {
            {"{\"message\":\"x\",\"cron\":\"61 * * * *\"}", "cron"},
            {"{\"message\":\"x\",\"cron\":\"0 9 * * *\",\"zone\":\"Mars/Olympus\"}", "zone"},
            {"{\"message\":\"x\",\"every\":\"soon\"}", "every"},
            {"{\"message\":\"x\",\"every\":\"PT0.5S\"}", "every"},
            {"{\"message\":\"x\",\"at\":\"2001-01-01T00:00:00Z\"}", "at"},
            {"{\"message\":\"x\",\"at\":\"tomorrow\"}", "at"},
            {"{\"message\":\"x\"}", "cron"},
            {"{\"every\":\"PT1H\"}", "message"},
            {"{\"message\":\"x\",\"every\":\"PT1H\",\"sessionKey\":\"a b\"}", "sessionKey"},
        };
        for (String[] body : invalid) {
            HttpResponse<String> refused = call("POST", "api/schedules", token, body[0]);
            assertEquals(400, refused.statusCode(), body[0] + " → " + refused.body());
            assertEquals(body[1], TestJson.MAPPER.readTree(refused.body()).path("error").path("field").asText(), refused.body());
            assertTrue(refused.body().contains("\\\"" + body[1] + "\\\"") || refused.body().contains(body[1]), refused.body());
        }
        for (int i = 0; i < 4; i++) {
            create(token, "{\"message\":\"x\",\"every\":\"PT1H\"}");
        }
        HttpResponse<String> fifth = call("POST", "api/schedules", token, "{\"message\":\"x\",\"every\":\"PT1H\"}");
        assertEquals(409, fifth.statusCode(), fifth.body());
        assertTrue(fifth.body().contains("lango.schedules.max-per-user"), fifth.body());
    }

    @Test
    void aScheduleEveryTwoSecondsRunsTurnsOfItsOwnerStoredAndMarkedUntilDeleted() throws Exception {
        String dan = "dan-" + RUN;
        String token = new ItCallers(base, OPERATOR).issue(dan, false);
        String tick = "tick-" + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(tick), r -> Reply.openAiText("tock for " + dan));
        String session = "ticks-" + RUN;
        String id = create(token, "{\"sessionKey\":\"" + session + "\",\"message\":\"" + tick + "\",\"every\":\"PT2S\"}")
                .path("id").asText();
        waitFor(Duration.ofSeconds(30), () -> asked(tick) >= 2, "two fires reached the model");
        waitFor(Duration.ofSeconds(10), () -> {
            try {
                return get(token, id).path("lastResult").asText().startsWith("answered: tock for " + dan);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "the last result is the answer");
        assertEquals(204, call("DELETE", "api/schedules/" + id, token, null).statusCode());
        Thread.sleep(1500); // a fire claimed just before the delete may still end
        long fired = asked(tick);
        List<String> stored = conversation(token, dan, session);
        long questions = stored.stream().filter(t -> t.startsWith("user: [Scheduled ") && t.endsWith("] " + tick)).count();
        long answers = stored.stream().filter(t -> t.equals("model: tock for " + dan)).count();
        assertEquals(fired, questions, "one stored, marked question per fire: " + stored);
        assertEquals(fired, answers, "each answered in the session: " + stored);
        Thread.sleep(4500);
        assertEquals(fired, asked(tick), "a deleted schedule fires no more");
    }

    @Test
    void aFireWhileTheSessionsTurnStillRunsIsSkippedAndRecorded() throws Exception {
        String kim = "kim-" + RUN;
        String token = new ItCallers(base, OPERATOR).issue(kim, false);
        String slow = "slow-" + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(slow), r -> Reply.delayed(Duration.ofSeconds(5), Reply.openAiText("late")));
        String session = "slow-" + RUN;
        String id = create(token, "{\"sessionKey\":\"" + session + "\",\"message\":\"" + slow + "\",\"every\":\"PT2S\"}")
                .path("id").asText();
        waitFor(Duration.ofSeconds(30), () -> {
            try {
                return get(token, id).path("lastResult").asText().startsWith("skipped: a turn was still under way");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "a fire while the first turn runs is skipped and recorded");
        assertEquals(204, call("DELETE", "api/schedules/" + id, token, null).statusCode());
        Thread.sleep(6000);
        List<String> stored = conversation(token, kim, session);
        assertEquals(stored.stream().filter(t -> t.startsWith("user: [Scheduled ")).count(),
                stored.stream().filter(t -> t.equals("model: late")).count(), "no question left without its answer: " + stored);
        assertTrue(asked(slow) < 4, "the skipped fires never reached the model: " + asked(slow));
    }

    @Test
    void overItsOwnersBudgetAFireIsSkippedAndRecorded() throws Exception {
        String eve = "eve-" + RUN;
        String token = new ItCallers(base, OPERATOR).issue(eve, false);
        String ask = "budgeted-" + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> Reply.openAiText("spent"));
        String id = create(token, "{\"sessionKey\":\"budget-" + RUN + "\",\"message\":\"" + ask + "\",\"every\":\"PT2S\"}")
                .path("id").asText();
        waitFor(Duration.ofSeconds(30), () -> asked(ask) >= 1, "a first fire ran");
        assertEquals(200, call("PUT", "api/admin/users/" + eve, OPERATOR, "{\"tokensPerDay\":1}").statusCode());
        waitFor(Duration.ofSeconds(30), () -> {
            try {
                String last = get(token, id).path("lastResult").asText();
                return last.startsWith("skipped: ") && last.contains("token");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "a fire over the budget is skipped and recorded");
        long fired = asked(ask);
        Thread.sleep(4500);
        assertEquals(fired, asked(ask), "no fire over the budget reaches the model");
        assertTrue(get(token, id).path("lastResult").asText().startsWith("skipped: "), "still skipped, not queued");
    }

    @Test
    void aScheduledTurnsRequestForApprovalWaitsForItsOwnerAndExpiresUnanswered() throws Exception {
        String hal = "hal-" + RUN;
        String token = new ItCallers(base, OPERATOR).issue(hal, false);
        String ask = "run the nightly check " + RUN;
        String file = "scheduled-" + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> afterTool(r)
                ? Reply.openAiText("It did not run.")
                : Reply.openAiToolCall("call_a" + RUN, "exec", "{\"command\":\"echo ran >> " + file + "\"}"));
        String session = "nightly-" + RUN;
        String id = create(token, "{\"sessionKey\":\"" + session + "\",\"message\":\"" + ask + "\",\"at\":\""
                + Instant.now().plusSeconds(2) + "\"}").path("id").asText();
        waitFor(Duration.ofSeconds(30), () -> {
            try {
                return get(token, id).path("lastResult").asText().startsWith("waiting: ");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "the scheduled turn waits for its owner's approval");
        HttpResponse<String> audit = call("GET", "api/admin/approvals?sessionKey=" + session, OPERATOR, null);
        JsonNode asked = TestJson.MAPPER.readTree(audit.body()).path("approvals");
        assertEquals(1, asked.size(), audit.body());
        assertEquals(hal, asked.get(0).path("userId").asText(), "the owner's request");
        assertEquals("exec", asked.get(0).path("tool").asText());
        waitFor(Duration.ofSeconds(20), () -> {
            try {
                return conversation(token, hal, session).contains("model: It did not run.");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "unanswered, the request expires and the turn goes on, the model told");
        JsonNode ended = TestJson.MAPPER.readTree(call("GET", "api/admin/approvals?sessionKey=" + session, OPERATOR, null).body())
                .path("approvals");
        assertEquals("expired", ended.get(0).path("decision").asText(), ended.toString());
        assertFalse(ended.get(0).path("ran").asBoolean());
        assertTrue(get(token, id).path("next").isNull(), "an at fires once");
    }

    @Test
    void theAgentSchedulesListsAndDeletesTheCallersOwnOnly() throws Exception {
        ItCallers callers = new ItCallers(base, OPERATOR);
        String fay = "fay-" + RUN;
        String token = callers.issue(fay, false);
        String gusToken = callers.issue("gus-" + RUN, false);
        String gusSchedule = create(gusToken, "{\"message\":\"gus's\",\"every\":\"PT1H\"}").path("id").asText();
        String session = "agent-" + RUN;
        String remind = "remind me every hour to stretch " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(remind), r -> afterTool(r)
                ? Reply.openAiText("Scheduled.")
                : Reply.openAiToolCall("call_c" + RUN, "schedule_create", "{\"message\":\"stretch " + RUN + "\",\"every\":\"PT1H\"}"));
        HttpResponse<String> ran = call("POST", "api/run", token, TestJson.runRequest(fay, session, remind));
        assertEquals(200, ran.statusCode(), ran.body());
        JsonNode mine = TestJson.MAPPER.readTree(call("GET", "api/schedules", token, null).body()).path("schedules");
        assertEquals(1, mine.size(), mine.toString());
        String id = mine.get(0).path("id").asText();
        made.add(new String[] {token, id});
        assertEquals("stretch " + RUN, mine.get(0).path("message").asText());
        assertEquals(session, mine.get(0).path("sessionKey").asText(), "in the caller's session");
        assertEquals("PT1H", mine.get(0).path("every").asText());

        String list = "what is scheduled " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(list), r -> afterTool(r)
                ? Reply.openAiText("Listed.") : Reply.openAiToolCall("call_l" + RUN, "schedule_list", "{}"));
        assertEquals(200, call("POST", "api/run", token, TestJson.runRequest(fay, session, list)).statusCode());
        String listedResult = toolResult(list);
        assertTrue(listedResult.contains(id), listedResult);
        assertFalse(listedResult.contains(gusSchedule), "another user's is not listed: " + listedResult);

        String steal = "delete gus's " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(steal), r -> afterTool(r)
                ? Reply.openAiText("Tried.") : Reply.openAiToolCall("call_s" + RUN, "schedule_delete", "{\"id\":\"" + gusSchedule + "\"}"));
        assertEquals(200, call("POST", "api/run", token, TestJson.runRequest(fay, session, steal)).statusCode());
        assertTrue(toolResult(steal).contains("no schedule"), toolResult(steal));
        assertEquals(200, call("GET", "api/schedules/" + gusSchedule, gusToken, null).statusCode(), "gus's stays");

        String delete = "stop reminding me " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(delete), r -> afterTool(r)
                ? Reply.openAiText("Deleted.") : Reply.openAiToolCall("call_d" + RUN, "schedule_delete", "{\"id\":\"" + id + "\"}"));
        assertEquals(200, call("POST", "api/run", token, TestJson.runRequest(fay, session, delete)).statusCode());
        assertEquals(0, TestJson.MAPPER.readTree(call("GET", "api/schedules", token, null).body()).path("schedules").size());
    }

    @Test
    void theChatPageMarksScheduledTurnsAndListsSchedulesToPauseAndDelete() throws Exception {
        String ida = "ida-" + RUN;
        String token = new ItCallers(base, OPERATOR).issue(ida, false);
        String session = "page-" + RUN;
        String tick = "page tick " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(tick), r -> Reply.openAiText("page tock"));
        String fired = create(token, "{\"sessionKey\":\"" + session + "\",\"message\":\"" + tick + "\",\"at\":\""
                + Instant.now().plusSeconds(2) + "\"}").path("id").asText();
        create(token, "{\"sessionKey\":\"" + session + "\",\"message\":\"hourly " + RUN + "\",\"every\":\"PT1H\"}");
        waitFor(Duration.ofSeconds(30), () -> {
            try {
                return get(token, fired).path("lastResult").asText().startsWith("answered: page tock");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "the scheduled turn answered");
        org.openqa.selenium.chrome.ChromeDriver browser = ItBrowser.start();
        try {
            browser.get(base.toString());
            browser.executeScript("sessionStorage.setItem('lango.token', arguments[0]);"
                    + " localStorage.setItem('lango.session.' + arguments[1], arguments[2]);", token, ida, session);
            browser.navigate().refresh();
            org.openqa.selenium.support.ui.WebDriverWait wait = new org.openqa.selenium.support.ui.WebDriverWait(browser,
                    Duration.ofSeconds(30));
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(
                    org.openqa.selenium.By.cssSelector(".msg.user.scheduled"), tick));
            assertTrue(browser.findElement(org.openqa.selenium.By.cssSelector(".msg.user.scheduled .scheduled-note")).getText()
                    .startsWith("⏰ Scheduled"));
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(
                    org.openqa.selenium.By.cssSelector(".msg.assistant .body"), "page tock"));
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.numberOfElementsToBe(
                    org.openqa.selenium.By.cssSelector("#schedules li"), 2));
            List<org.openqa.selenium.WebElement> items = browser.findElements(org.openqa.selenium.By.cssSelector("#schedules li"));
            assertTrue(items.get(0).getText().contains("last: answered: page tock"), items.get(0).getText());
            assertTrue(items.get(1).getText().contains("hourly " + RUN) && items.get(1).getText().contains("next "),
                    items.get(1).getText());
            ItBrowser.screenshot(browser, "schedules");
            items.get(1).findElement(org.openqa.selenium.By.cssSelector(".schedule-pause")).click();
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.textToBePresentInElementLocated(
                    org.openqa.selenium.By.cssSelector("#schedules li.paused .schedule-pause"), "Resume"));
            assertTrue(get(token, TestJson.MAPPER.readTree(call("GET", "api/schedules", token, null).body()).path("schedules")
                    .get(1).path("id").asText()).path("paused").asBoolean(), "paused on the server");
            browser.findElement(org.openqa.selenium.By.cssSelector("#schedules li.paused .schedule-delete")).click();
            browser.switchTo().alert().accept();
            wait.until(org.openqa.selenium.support.ui.ExpectedConditions.numberOfElementsToBe(
                    org.openqa.selenium.By.cssSelector("#schedules li"), 1));
            assertEquals(1, TestJson.MAPPER.readTree(call("GET", "api/schedules", token, null).body()).path("schedules").size());

            // A fire while the page is open: its message and answer appear without a reload (agent.scheduled on this
            // server's socket; were the fire another deployment's, the page's 30 s look at its schedules brings it).
            String live = "live tick " + RUN;
            fake.route(FakeLlmServer.lastUserMessageContains(live), r -> Reply.openAiText("live tock"));
            create(token, "{\"sessionKey\":\"" + session + "\",\"message\":\"" + live + "\",\"at\":\""
                    + Instant.now().plusSeconds(2) + "\"}");
            org.openqa.selenium.support.ui.WebDriverWait longer = new org.openqa.selenium.support.ui.WebDriverWait(browser,
                    Duration.ofSeconds(45));
            longer.until(d -> d.findElements(org.openqa.selenium.By.cssSelector(".msg.user.scheduled")).stream()
                    .anyMatch(e -> e.getText().contains(live)));
            longer.until(d -> d.findElements(org.openqa.selenium.By.cssSelector(".msg.assistant .body")).stream()
                    .anyMatch(e -> e.getText().contains("live tock")));
            ItBrowser.screenshot(browser, "schedules-live");
        } finally {
            browser.quit();
        }
    }

    /** Whether the model's request comes after a tool's answer (its last message is the tool's). */
    private static boolean afterTool(FakeLlmServer.Recorded request) {
        JsonNode messages = request.json() == null ? null : request.json().path("messages");
        return messages != null && messages.size() > 0 && "tool".equals(messages.get(messages.size() - 1).path("role").asText());
    }

    /** What the tool answered in the turn that asked {@code question}: the last message of the model's second request. */
    private String toolResult(String question) {
        return fake.requests().stream().filter(FakeLlmServer.lastUserMessageContains(question)).filter(SchedulesIT::afterTool)
                .map(r -> r.json().path("messages").get(r.json().path("messages").size() - 1).path("content").toString())
                .findFirst().orElse("(no tool result)");
    }
}
