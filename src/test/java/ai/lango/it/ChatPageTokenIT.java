package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
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
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The chat page against a server with lango.auth.token: it asks for the token before it connects,
 * says "connected" only once the server accepted it, and a message typed before that is sent, not lost.
 */
@ExtendWith(ArquillianExtension.class)
@Tag(ItDatabase.HSQLDB_TAG) // a page: the API it reads is tested on each database
@RunAsClient
class ChatPageTokenIT extends FakeLlmIT {

    private static final String TOKEN = "tok-page-" + "0123456789";
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-page-token.war"), "lango.auth.token=" + TOKEN + "\n");
    }

    @ArquillianResource
    URL base;

    private ChromeDriver browser;

    @BeforeEach
    void start() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "browser tests skipped: install Debian's chromium and chromium-driver");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--window-size=1100,750");
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build(), options);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void asksForTheTokenFirstShowsTheTruthAndSendsTheMessageTypedBeforeIt() throws Exception {
        fake.enqueue(Reply.openAiText("Token ", "accepted."));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        String status = browser.findElement(By.id("status")).getText();
        assertFalse(status.contains("connected") && !status.contains("disconnected"), "not connected yet: " + status);
        assertTrue(status.contains("token"), status);

        // Typed before the token: kept and shown as waiting, never lost.
        browser.findElement(By.id("input")).sendKeys("sent after the token");
        browser.findElement(By.id("send")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".msg.user.pending")));

        browser.findElement(By.id("token")).sendKeys("wrong-token-123");
        browser.findElement(By.id("token-save")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "not accepted"));

        browser.findElement(By.id("token")).sendKeys(TOKEN);
        browser.findElement(By.id("token-save")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Token accepted."));
        assertEquals("connected", browser.findElement(By.id("status")).getText());
        assertTrue(fake.last().json().toString().contains("sent after the token"), "the model got the message typed first");
        assertTrue(browser.findElements(By.cssSelector(".msg.user.pending")).isEmpty());
        Path target = Path.of("target", "screenshots");
        Files.createDirectories(target);
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), target.resolve("chat-page-token.png"),
                StandardCopyOption.REPLACE_EXISTING);
    }
}
