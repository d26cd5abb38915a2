package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The browser tools on the real server with Debian's Chromium, driven by the fake model's tool
 * calls against pages this test serves on 127.0.0.1: navigate and read refs from the snapshot,
 * click and type by those refs and by CSS selectors, wait for text, go back; a screenshot kept as
 * a session artifact, read through ADK's artifact route and shown on the chat page; the server
 * itself, the metadata address and a redirect to a refused host refused, the refused host never
 * reached; a killed browser started again; an idle context closed.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class BrowserIT extends FakeLlmIT {

    /**
     * The browser, its guard, its pages and its restarts do not touch the database: those tests run on
     * the embedded one only (on PostgreSQL they took two minutes more). The screenshot kept as a
     * session artifact, which the database stores, is tested on both.
     */
    private static final String NO_DATABASE = ItDatabase.HSQLDB_TAG;

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final boolean CHROMIUM = Files.isExecutable(ItBrowser.CHROMIUM);
    /** Requests the refused host got: must stay empty. */
    private static final List<String> CANARY_HITS = new CopyOnWriteArrayList<>();
    private static final HttpServer PAGES = serve(BrowserIT::page);
    private static final HttpServer CANARY = serve(exchange -> {
        CANARY_HITS.add(exchange.getRequestURI().toString());
        answer(exchange, 200, "text/plain", "the canary was reached");
    });

    @Deployment
    static WebArchive deployment() {
        // Without Chromium the browser stays off (switched on, it would refuse the start) and the tests skip.
        return ItDeployments.configured(ItDeployments.war("lango-browser.war"), "lango.tools.browser.enabled=" + CHROMIUM + "\n"
                + "lango.tools.browser.allowed-hosts=127.0.0.1:" + PAGES.getAddress().getPort() + "\n"
                + "lango.tools.browser.session-timeout=PT8S\n"
                + "lango.tools.browser.max-contexts=3\n"
                + "lango.tools.browser.timeout=PT10S\n"
                + "lango.security.approval.policy=none\n");
    }

    @ArquillianResource
    URL base;

    private String session;

    @BeforeEach
    void skipWithoutChromium() {
        assumeTrue(CHROMIUM, "browser tests skipped: install Debian's chromium");
        session = "browser-" + UUID.randomUUID();
    }

    @AfterAll
    static void stopPages() {
        PAGES.stop(0);
        CANARY.stop(0);
    }

    private static HttpServer serve(com.sun.net.httpserver.HttpHandler handler) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", handler);
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pages(String path) {
        return "http://127.0.0.1:" + PAGES.getAddress().getPort() + path;
    }

    private static void page(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String query = exchange.getRequestURI().getQuery();
        switch (path) {
            case "/" -> answer(exchange, 200, "text/html", "<html><head><title>Lango test shop</title></head><body>"
                    + "<h1>Welcome</h1><a href='/second'>Second page</a>"
                    + "<form action='/search'><input name='q' aria-label='Query'><button>Search</button></form>"
                    + "<label>Colour <select name='c' id='colour'><option value='r'>Red</option><option value='b'>Blue</option>"
                    + "</select></label><button id='later' onclick=\"setTimeout(() => document.getElementById('out')"
                    + ".textContent = 'Loaded late', 1500)\">Load later</button><p id='out'></p></body></html>");
            case "/second" -> answer(exchange, 200, "text/html", "<html><head><title>Second</title></head><body>"
                    + "<p>This is the second page</p></body></html>");
            case "/search" -> answer(exchange, 200, "text/html", "<html><head><title>Results</title></head><body>"
                    + "<h1>Results for " + query.replace("q=", "").replace('+', ' ').replace("<", "") + "</h1></body></html>");
            case "/to-canary" -> redirect(exchange, "http://127.0.0.1:" + CANARY.getAddress().getPort() + "/stolen");
            case "/to-metadata" -> redirect(exchange, "http://169.254.169.254/latest/meta-data/");
            case "/with-canary-image" -> answer(exchange, 200, "text/html", "<html><body><p>Image below</p><img src='http://127.0.0.1:"
                    + CANARY.getAddress().getPort() + "/pixel.png'></body></html>");
            default -> answer(exchange, 404, "text/plain", "no such page");
        }
    }

    private static void redirect(HttpExchange exchange, String location) throws IOException {
        exchange.getResponseHeaders().add("Location", location);
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    private static void answer(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type + "; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** One turn of this test's session in which the model calls {@code tool}: the tool's answer as the model read it. */
    private JsonNode tool(String tool, String args) throws Exception {
        return turn(tool, args).answer;
    }

    private record Turn(JsonNode answer, String events) {
    }

    private Turn turn(String tool, String args) throws Exception {
        String callId = "call_" + UUID.randomUUID().toString().substring(0, 8);
        String ask = "use the browser (" + callId + ")";
        // answered by the turn's own words, not queued: a turn an earlier test left behind may ask the model meanwhile
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> r.json().path("messages").findValuesAsText("tool_call_id")
                .contains(callId) ? Reply.openAiText("done") : Reply.openAiToolCall(callId, tool, args));
        int before = fake.requests().size();
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest("user", session, ask));
        assertEquals(200, run.statusCode(), run.body());
        for (FakeLlmServer.Recorded request : fake.requests().subList(before, fake.requests().size())) {
            for (JsonNode message : request.json().path("messages")) {
                if (callId.equals(message.path("tool_call_id").asText())) {
                    return new Turn(TestJson.MAPPER.readTree(message.path("content").asText()), run.body());
                }
            }
        }
        throw new AssertionError("the model never got the answer of " + tool + ": " + run.body());
    }

    /** The ref the snapshot gives the element with this role and name. */
    private static String ref(JsonNode page, String role, String name) {
        Matcher ref = Pattern.compile(Pattern.quote(role + " \"" + name + "\"") + ".*?\\[ref=(\\w+)]").matcher(page.path("snapshot").asText());
        assertTrue(ref.find(), role + " \"" + name + "\" in " + page.path("snapshot").asText());
        return ref.group(1);
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void theAgentActsByTheRefsOfItsOwnSnapshotAndBySelectors() throws Exception {
        JsonNode home = tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}");
        assertEquals(200, home.path("status").asInt(), home.toString());
        assertEquals("Lango test shop", home.path("title").asText());
        assertTrue(home.path("snapshot").asText().contains("heading \"Welcome\""), home.toString());

        JsonNode second = tool("browser_click", "{\"target\":\"" + ref(home, "link", "Second page") + "\"}");
        assertEquals(pages("/second"), second.path("url").asText());
        assertTrue(second.path("snapshot").asText().contains("This is the second page"), second.toString());

        JsonNode back = tool("browser_back", "{}");
        assertEquals(pages("/"), back.path("url").asText(), back.toString());

        JsonNode results = tool("browser_type", "{\"target\":\"" + ref(back, "textbox", "Query") + "\",\"text\":\"lango shoes\","
                + "\"submit\":true}");
        assertTrue(results.path("url").asText().startsWith(pages("/search?q=lango")), results.toString());
        assertTrue(results.path("snapshot").asText().contains("heading \"Results for lango shoes\""), results.toString());

        tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}");
        JsonNode chosen = tool("browser_select_option", "{\"target\":\"#colour\",\"values\":[\"Blue\"]}");
        assertEquals("b", chosen.path("selected").get(0).asText(), chosen.toString());

        tool("browser_click", "{\"target\":\"button#later\"}");
        JsonNode waited = tool("browser_wait_for", "{\"text\":\"Loaded late\"}");
        assertTrue(waited.path("snapshot").asText().contains("Loaded late"), waited.toString());

        JsonNode part = tool("browser_snapshot", "{\"target\":\"form\"}");
        assertTrue(part.path("snapshot").asText().contains("button \"Search\""), part.toString());
        assertFalse(part.path("snapshot").asText().contains("Welcome"), "only the form: " + part);

        JsonNode missing = tool("browser_click", "{\"target\":\"e999\"}");
        assertTrue(missing.path("error").asText().startsWith("browser_click: "), missing.toString());
        JsonNode closed = tool("browser_close", "{}");
        assertTrue(closed.path("closed").asBoolean(), closed.toString());
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void aSecretGoesOnlyToTheHostAndToolItIsBoundToAndNeverIntoAUrl() throws Exception {
        String name = "it-site-" + UUID.randomUUID().toString().substring(0, 8);
        String value = "site-password-" + UUID.randomUUID();
        assertEquals(201, call("PUT", "api/admin/secrets/" + name, "{\"value\":\"" + value + "\"}").statusCode());
        String reference = "{{secret:" + name + "}}";

        JsonNode inUrl = tool("browser_navigate", "{\"url\":\"http://127.0.0.1:" + CANARY.getAddress().getPort() + "/page?k="
                + reference + "\"}");
        assertTrue(inUrl.path("error").asText().contains("never goes into a URL"), inUrl.toString());
        JsonNode home = tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}");
        JsonNode unbound = tool("browser_type", "{\"target\":\"" + ref(home, "textbox", "Query") + "\",\"text\":\"" + reference
                + "\",\"submit\":true}");
        assertTrue(unbound.path("error").asText().contains("may be sent to no host"), "bound to no host: " + unbound);

        assertEquals(200, call("PUT", "api/admin/secrets/" + name, "{\"value\":\"" + value + "\",\"hosts\":[\"127.0.0.1:"
                + PAGES.getAddress().getPort() + "\"],\"tools\":[\"browser_type\"]}").statusCode());
        home = tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}");
        JsonNode typed = tool("browser_type", "{\"target\":\"" + ref(home, "textbox", "Query") + "\",\"text\":\"" + reference
                + "\",\"submit\":true}");
        assertTrue(typed.path("url").asText().startsWith(pages("/search?q=")), "typed where it is bound: " + typed);
        assertFalse(typed.toString().contains(value), "the page's answer is masked: " + typed);
        assertTrue(CANARY_HITS.stream().noneMatch(hit -> hit.contains(value) || hit.contains("secret")),
                "the canary never got the value: " + CANARY_HITS);
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void theServerItselfTheMetadataAddressAndARedirectToARefusedHostStayRefused() throws Exception {
        String own = tool("browser_navigate", "{\"url\":\"" + base + "api/admin/users\"}").path("error").asText();
        assertTrue(own.contains("refused") && own.contains("loopback"), own);
        String metadata = tool("browser_navigate", "{\"url\":\"http://169.254.169.254/latest/meta-data/\"}").path("error").asText();
        assertTrue(metadata.contains("refused") && metadata.contains("link-local"), metadata);
        String file = tool("browser_navigate", "{\"url\":\"file:///etc/passwd\"}").path("error").asText();
        assertTrue(file.contains("only http and https"), file);

        JsonNode redirected = tool("browser_navigate", "{\"url\":\"" + pages("/to-canary") + "\"}");
        assertEquals(403, redirected.path("status").asInt(), redirected.toString());
        assertTrue(redirected.path("refused").asText().contains("loopback"), redirected.toString());
        JsonNode toMetadata = tool("browser_navigate", "{\"url\":\"" + pages("/to-metadata") + "\"}");
        assertTrue(toMetadata.path("refused").asText().contains("link-local"), toMetadata.toString());
        JsonNode image = tool("browser_navigate", "{\"url\":\"" + pages("/with-canary-image") + "\"}");
        assertTrue(image.path("events").toString().contains("refused http://127.0.0.1:" + CANARY.getAddress().getPort()
                + "/pixel.png"), "a page's own request is refused and reported: " + image);
        assertEquals(List.of(), CANARY_HITS, "the refused host never got a request");
    }

    @Test
    void aScreenshotIsASessionArtifactReadThroughAdksRouteAndItsEvent() throws Exception {
        tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}");
        Turn shot = turn("browser_screenshot", "{}");
        JsonNode answer = shot.answer;
        assertEquals("browser-screenshot.png", answer.path("artifact").asText(), answer.toString());
        assertFalse(answer.toString().contains("iVBOR"), "the model gets the artifact's name, not the image");
        assertTrue(shot.events.contains("\"artifactDelta\":{\"browser-screenshot.png\":" + answer.path("version").asInt() + "}"),
                "the function response event names the artifact, for the dev UI: " + shot.events);

        String route = "api/apps/lango/users/user/sessions/" + session + "/artifacts";
        assertEquals("[\"browser-screenshot.png\"]", call("GET", route, null).body());
        HttpResponse<String> part = call("GET", route + "/browser-screenshot.png/versions/" + answer.path("version").asInt(), null);
        assertEquals(200, part.statusCode(), part.body());
        JsonNode inline = TestJson.MAPPER.readTree(part.body()).path("inlineData");
        assertEquals("image/png", inline.path("mimeType").asText());
        byte[] png = Base64.getDecoder().decode(inline.path("data").asText());
        assertEquals(answer.path("bytes").asLong(), png.length);
        assertEquals("PNG", new String(png, 1, 3, StandardCharsets.US_ASCII));

        assertEquals(204, call("DELETE", "api/apps/lango/users/user/sessions/" + session, null).statusCode());
        assertEquals("[]", call("GET", route, null).body(), "deleted with the session");
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void theChatPageShowsTheScreenshotTheAgentTook() throws Exception {
        ChromeDriver page = ItBrowser.start();
        try {
            navigateShootAndSay("Show me the shop", pages("/"), "Here is the shop.");
            page.get(base.toString());
            WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(60));
            wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
            page.findElement(By.id("input")).sendKeys("Show me the shop");
            page.findElement(By.id("send")).click();
            WebElement figure;
            try {
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Here is the shop."));
                figure = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".msg figure.artifact")));
            } catch (org.openqa.selenium.TimeoutException e) {
                ItBrowser.screenshot(page, "chat-page-browser-screenshot-timeout");
                throw new AssertionError("the answer or its screenshot did not show; the page shows: "
                        + page.findElement(By.id("messages")).getAttribute("innerText") + "; the model was asked "
                        + fake.requests().size() + " times", e);
            }
            WebElement image = wait.until(d -> {
                List<WebElement> shown = figure.findElements(By.tagName("img"));
                assertFalse(figure.getText().contains("not available"), "the page could not read the artifact: " + figure.getText());
                return shown.isEmpty() ? null : shown.get(0);
            });
            wait.until(driver -> ((Number) page.executeScript("return arguments[0].complete ? arguments[0].naturalWidth : 0",
                    image)).intValue() > 0);
            assertEquals(1280L, page.executeScript("return arguments[0].naturalWidth", image), "the whole 1280-pixel viewport");
            assertTrue(image.getAttribute("src").startsWith("blob:"), image.getAttribute("src"));
            ItBrowser.screenshot(page, "chat-page-browser-screenshot");
        } finally {
            page.quit();
        }
    }

    /**
     * The model of a turn asked {@code ask}: navigate to {@code url}, take a screenshot, then say {@code answer} —
     * answered by the turn's own words and how far it got, not queued: a turn an earlier test left behind may ask
     * the model meanwhile (seen in CI: it took the screenshot's reply).
     */
    private void navigateShootAndSay(String ask, String url, String answer) {
        fake.route(r -> r.body().contains(ask), r -> {
            int results = r.body().split("\"role\":\"tool\"", -1).length - 1;
            return results == 0 ? Reply.openAiToolCall("call_nav_" + session, "browser_navigate", "{\"url\":\"" + url + "\"}")
                    : results == 1 ? Reply.openAiToolCall("call_shot_" + session, "browser_screenshot", "{}")
                    : Reply.openAiText(answer);
        });
    }

    /** ADK's own dev UI, nobody here wrote it: it fetches the artifact the event names and shows the image. */
    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void adksDevUiShowsTheScreenshotTheAgentTook() throws Exception {
        ChromeDriver page = ItBrowser.start();
        try {
            navigateShootAndSay("show me the second page", pages("/second"), "Here is the second page.");
            page.get(base + "dev-ui/");
            WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(60));
            wait.until(ExpectedConditions.urlContains("app=lango"));
            WebElement input = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("textarea.chat-input-box")));
            input.sendKeys("show me the second page");
            input.sendKeys(org.openqa.selenium.Keys.ENTER);
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Here is the second page."));
            wait.until(driver -> ((Number) page.executeScript("return Array.from(document.querySelectorAll('img'))"
                    + ".filter(i => i.complete && i.naturalWidth >= 1280).length")).intValue() > 0);
            ItBrowser.screenshot(page, "adk-dev-ui-browser-screenshot");
        } finally {
            page.quit();
        }
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void aKilledBrowserIsStartedAgainAtTheNextUse() throws Exception {
        assertEquals(200, tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}").path("status").asInt());
        List<ProcessHandle> chromium = new ArrayList<>(ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains("--lango-browser=")).orElse(false))
                .toList());
        assertFalse(chromium.isEmpty(), "Chromium runs, marked as Lango's");
        chromium.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : chromium) {
            p.onExit().get();
        }
        JsonNode again = tool("browser_navigate", "{\"url\":\"" + pages("/second") + "\"}");
        assertEquals(200, again.path("status").asInt(), "navigated in a new browser: " + again);
        assertTrue(again.path("snapshot").asText().contains("This is the second page"), again.toString());
        assertEquals(200, HTTP.send(HttpRequest.newBuilder(URI.create(base.toString()).resolve("/health/live")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode(), "the server never noticed");
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void aDeletedSessionsContextClosesAndBeyondMaxContextsTheLeastRecentlyUsedGoes() throws Exception {
        String first = session;
        tool("browser_navigate", "{\"url\":\"" + pages("/second") + "\"}");
        for (int i = 0; i < 3; i++) {
            session = "browser-" + UUID.randomUUID();
            tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}");
        }
        JsonNode status = TestJson.MAPPER.readTree(call("GET", "api/admin/browser", null).body());
        assertEquals(3, status.path("contexts").asInt(), "at most max-contexts: " + status);
        assertTrue(status.path("running").asBoolean(), status.toString());

        assertEquals(204, call("DELETE", "api/apps/lango/users/user/sessions/" + session, null).statusCode());
        long until = System.currentTimeMillis() + 10_000;
        while (TestJson.MAPPER.readTree(call("GET", "api/admin/browser", null).body()).path("contexts").asInt() != 2
                && System.currentTimeMillis() < until) {
            Thread.sleep(100);
        }
        assertEquals(2, TestJson.MAPPER.readTree(call("GET", "api/admin/browser", null).body()).path("contexts").asInt(),
                "the deleted session's context closed");

        session = first;
        JsonNode reopened = tool("browser_snapshot", "{}");
        assertTrue(reopened.path("events").toString().contains("had been closed"), "the evicted session reopens: " + reopened);
        assertEquals(pages("/second"), reopened.path("url").asText());
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void aHungBrowserIsKilledAndStartedAgain() throws Exception {
        assertEquals(200, tool("browser_navigate", "{\"url\":\"" + pages("/") + "\"}").path("status").asInt());
        ProcessHandle main = ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> List.of(a).stream().anyMatch(x -> x.startsWith("--lango-browser="))
                        && List.of(a).stream().noneMatch(x -> x.startsWith("--type="))).orElse(false))
                .findFirst().orElseThrow(() -> new AssertionError("Chromium's browser process, marked as Lango's"));
        assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(main.pid())).start().waitFor());
        try {
            String hung = tool("browser_navigate", "{\"url\":\"" + pages("/second") + "\"}").path("error").asText();
            assertTrue(hung.contains("did not answer") && hung.contains("started again"), hung);
            assertTrue(main.onExit().get(java.util.concurrent.TimeUnit.SECONDS.toMillis(10),
                    java.util.concurrent.TimeUnit.MILLISECONDS) != null, "the hung process was killed");
        } finally {
            new ProcessBuilder("kill", "-CONT", Long.toString(main.pid())).start().waitFor();
        }
        JsonNode again = tool("browser_navigate", "{\"url\":\"" + pages("/second") + "\"}");
        assertEquals(200, again.path("status").asInt(), "a new browser: " + again);
    }

    @Test
    @org.junit.jupiter.api.Tag(NO_DATABASE)
    void anIdleContextIsClosedAndItsPageReopenedWhenUsedAgain() throws Exception {
        tool("browser_navigate", "{\"url\":\"" + pages("/second") + "\"}");
        Thread.sleep(8_000 + 4_000 + 2_000); // the session timeout, the reaper's period, and slack
        JsonNode later = tool("browser_snapshot", "{}");
        assertTrue(later.path("events").toString().contains("had been closed"), later.toString());
        assertEquals(pages("/second"), later.path("url").asText());
        assertNotNull(later.path("snapshot").asText());
    }
}
