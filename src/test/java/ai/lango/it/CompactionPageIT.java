package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.turn.Names;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The chat page in headless Chromium on a session long enough to be compacted (a 1,200-token budget): the folded range
 * is one collapsed line, "N earlier messages summarised", that opens to the summary and the original messages.
 */
@ExtendWith(ArquillianExtension.class)
@Tag(ItDatabase.HSQLDB_TAG) // a page: the API it reads is tested on each database
@RunAsClient
class CompactionPageIT extends FakeLlmIT {

    static final String SUMMARIZER_ASKS = "You compact a conversation";
    static final String FIRST = "Remember the code word OSPREY for later, please.";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-compaction-page.war"),
                """
                lango.agent.token-budget=1200
                lango.agent.compaction.keep-recent-turns=2
                """);
    }

    @ArquillianResource
    URL base;

    private final HttpClient http = HttpClient.newHttpClient();
    private ChromeDriver browser;

    @BeforeEach
    void start() {
        browser = ItBrowser.start();
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "api/" + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private void run(String session, String text, String answer) throws Exception {
        // no usage reported: the next request's size is estimated (the fake's own count is a constant)
        fake.enqueue(Reply.sse(FakeLlmServer.OpenAi.textFrames(-1, 0, 0, answer)));
        String body = "{\"appName\":\"lango\",\"userId\":\"" + Names.DEFAULT_USER + "\",\"sessionId\":\"" + session
                + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"" + text + "\"}]}}";
        HttpResponse<String> response = call("POST", "run", body);
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void aCompactedRangeIsOneLineThatOpensToTheSummaryAndTheOriginals() throws Exception {
        fake.route(FakeLlmServer.bodyContains(SUMMARIZER_ASKS), r -> Reply.openAiText(
                r.body().contains("OSPREY") ? "SUMMARY: the user's code word is OSPREY." : "SUMMARY: small talk."));
        String key = "compaction-page-" + UUID.randomUUID();
        run(key, FIRST, "Noted.");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (int i = 2; !call("GET", "apps/lango/users/" + Names.DEFAULT_USER + "/sessions/" + key, null).body()
                .contains("\"compaction\""); i++) {
            assertTrue(System.nanoTime() < deadline && i < 40, "the session was compacted");
            run(key, "Question " + i + ": " + "tell me more about the weather today. ".repeat(6), "It is sunny. ".repeat(20));
        }

        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#sessions li .session-title[title='" + key + "']")))
                .click();
        WebElement line = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("details.compacted")));
        String said = line.findElement(By.tagName("summary")).getText();
        assertTrue(said.matches("\\d+ earlier messages summarised"), said);
        int count = Integer.parseInt(said.split(" ")[0]);
        assertFalse(line.findElement(By.cssSelector(".compaction-summary")).isDisplayed(), "collapsed at first");
        assertEquals(1, browser.findElements(By.cssSelector("details.compacted")).size());

        line.findElement(By.tagName("summary")).click();
        assertTrue(line.findElement(By.cssSelector(".compaction-summary")).getText().contains("OSPREY"));
        assertEquals(count, line.findElements(By.cssSelector(".compacted-originals .msg")).size());
        assertEquals(FIRST, line.findElement(By.cssSelector(".compacted-originals .msg.user")).getText(),
                "the first turn's own words are among the originals");
        assertTrue(browser.findElements(By.cssSelector("#messages > .msg.user")).size() >= 2,
                "the turns after the range are shown as ever");
        ItBrowser.screenshot(browser, "chat-page-compacted");
    }
}
