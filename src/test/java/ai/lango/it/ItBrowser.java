package ai.lango.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's headless chromium for the browser tests; a test is skipped (not failed) without it. */
final class ItBrowser {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private ItBrowser() {
    }

    /** A headless browser; skips the calling test when chromium or chromedriver is not installed. */
    static ChromeDriver start() {
        // mvn verify needs only a JDK and Maven; .ci/run installs Debian's chromium and chromium-driver.
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "browser tests skipped: install Debian's chromium and chromium-driver");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run", "--window-size=1300,750");
        // The console's messages, for the dev UI's clean-console check.
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Saves what the browser shows to target/screenshots/{name}.png. */
    static void screenshot(ChromeDriver browser, String name) throws Exception {
        Path target = Path.of("target", "screenshots");
        Files.createDirectories(target);
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), target.resolve(name + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
    }
}
