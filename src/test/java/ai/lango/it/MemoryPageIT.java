package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import java.net.URL;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The chat page's memory panel, with memory on: after a long enough turn it shows the observation. */
@ExtendWith(ArquillianExtension.class)
@Tag(ItDatabase.HSQLDB_TAG) // a page: the API it reads is tested on each database
class MemoryPageIT extends FakeLlmIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-memory-page.war"),
                "lango.memory.enabled=true\nlango.memory.observation-threshold=40\n");
    }

    @ArquillianResource
    URL base;

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

    @Test
    void theMemoryPanelShowsTheObservationAfterTheTurn() throws Exception {
        fake.route(FakeLlmServer.bodyContains(MemoryIT.OBSERVER_ASKS), r -> Reply.openAiText(MemoryIT.OBSERVED))
                .enqueue(Reply.openAiText("Sounds lovely."));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys(MemoryIT.LONG_MESSAGE);
        browser.findElement(By.id("send")).click();

        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "lovely"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("memory-observations"), "OBSERVED: the user"));
        ItBrowser.screenshot(browser, "chat-page-memory");
        assertTrue(browser.findElement(By.id("memory")).isDisplayed());
        assertTrue(browser.findElement(By.id("memory-status")).getText().contains("tokens remembered"));
        assertFalse(browser.findElement(By.id("memory-reflections-title")).isDisplayed(), "no empty header");
        assertFalse(browser.findElement(By.id("token-form")).isDisplayed(), "no token is asked for without one");
    }

    @Test
    void thePanelShowsWhatTheAgentKnows() throws Exception {
        String key = "page-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        fake.enqueue(Reply.openAiToolCall("call_pk", "save_knowledge", "{\"key\":\"" + key + "\",\"category\":\"preference\","
                        + "\"content\":\"Answers in British English\"}"))
                .enqueue(Reply.openAiText("Noted."));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys("Please answer in British English.");
        browser.findElement(By.id("send")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("memory-knowledge"),
                "[preference] " + key + ": Answers in British English"));
        ItBrowser.screenshot(browser, "chat-page-knowledge");
    }
}
