package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.FakeLlmServer;
import java.net.URL;
import java.time.Duration;
import java.util.List;
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
 * The chat page in headless Chromium against the real server and the fake model: type, send, see
 * the streamed answer rendered as Markdown and the tool call. Screenshots stay in target/.
 */
@ExtendWith(ArquillianExtension.class)
@Tag(ItDatabase.HSQLDB_TAG) // a page: the API it reads is tested on each database
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
class ChatPageIT extends FakeLlmIT {

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
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
    void typeSendAndSeeTheStreamedAnswerAndTheToolCall() throws Exception {
        fake.enqueue(Reply.openAiToolCall("call_page", "fs_write", "{\"path\":\"page/hello.txt\",\"content\":\"hi\"}"))
                .enqueue(Reply.paced(Duration.ofMillis(50),
                        FakeLlmServer.OpenAi.textFrames("Wrote **hello.txt** ", "for you.")));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));

        browser.findElement(By.id("input")).sendKeys("Write hi to page/hello.txt");
        browser.findElement(By.id("send")).click();

        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "for you."));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        screenshot("chat-page-answer");

        WebElement answer = browser.findElement(By.cssSelector(".msg.assistant .body"));
        assertEquals("hello.txt", answer.findElement(By.tagName("strong")).getText(), "Markdown is rendered");
        List<WebElement> tools = browser.findElements(By.cssSelector("details.tool summary"));
        assertEquals(1, tools.size());
        assertTrue(tools.get(0).getText().contains("fs_write"), tools.get(0).getText());
        assertEquals("✓ ran", tools.get(0).findElement(By.cssSelector(".tool-state")).getText(), "a call that ran says so");
        assertTrue(browser.findElement(By.cssSelector(".msg.user")).getText().contains("Write hi"));
        wait.until(ExpectedConditions.numberOfElementsToBeMoreThan(By.cssSelector("#sessions li"), 0));
        assertFalse(browser.findElement(By.id("memory-observations-title")).isDisplayed(), "no memory while memory is off");
        assertFalse(browser.findElement(By.id("token-form")).isDisplayed(), "no token is asked for without one");
    }

    @Test
    void aDangerousCallWaitsOnAnApprovalCardThatNeverTakesTheKeyboardDeniesWithAClickAndApprovesWithAKeyOnIt() throws Exception {
        String file = "page/doomed-" + System.nanoTime() + ".txt";
        fake.enqueue(Reply.openAiToolCall("call_w", "fs_write", "{\"path\":\"" + file + "\",\"content\":\"x\"}"))
                .enqueue(Reply.openAiToolCall("call_d1", "fs_delete", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("Kept it."));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys("write then delete " + file);
        browser.findElement(By.id("send")).click();

        WebElement card = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".approval")));
        assertTrue(card.getText().contains("fs_delete") && card.getText().contains("dangerous") && card.getText().contains(file),
                card.getText());
        assertTrue(card.findElement(By.cssSelector(".approval-left")).getText().endsWith("s left"), card.getText());
        screenshot("chat-page-approval");
        card.findElement(By.cssSelector(".approval-deny")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".approval .approval-left"), "Denied"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Kept it."));
        assertTrue(fake.last().body().contains("A person denied this call"), fake.last().body());

        fake.enqueue(Reply.openAiToolCall("call_d2", "fs_delete", "{\"path\":\"" + file + "\"}"))
                .enqueue(Reply.openAiText("Deleted it."));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys("delete it now");
        browser.findElement(By.id("send")).click();
        WebElement composer = browser.findElement(By.id("input"));
        composer.click(); // the person goes on typing their next message while the card appears
        wait.until(d -> d.findElements(By.cssSelector(".approval")).size() == 2);
        WebElement second = browser.findElements(By.cssSelector(".approval")).get(1);
        browser.switchTo().activeElement().sendKeys("and then ");
        assertEquals(composer, browser.switchTo().activeElement(), "the card did not take the keyboard from the composer");
        assertEquals("and then ", composer.getAttribute("value"), "the space went into the message, not to Approve");
        assertEquals("pending", second.getAttribute("data-state"), "nothing was answered by typing");
        composer.clear();
        second.findElement(By.cssSelector(".approval-approve")).sendKeys(org.openqa.selenium.Keys.ENTER); // a key on the card itself
        wait.until(d -> second.findElement(By.cssSelector(".approval-left")).getText().startsWith("Approved"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant:last-of-type .body"), "Deleted it."));
        String sent = fake.last().body();
        assertFalse(sent.contains("does not exist"), "the approved delete ran, and"
                + " found the file the denied one left: " + sent);
    }

    @Test
    void sessionsAreListedNewestFirstUnderTheirFirstMessageAndCanBeRenamed() throws Exception {
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        String[] questions = {"What is the capital of France?", "Summarise the design document for me please"};
        for (String question : questions) {
            wait.until(ExpectedConditions.elementToBeClickable(By.id("new-session"))).click();
            fake.enqueue(Reply.openAiText("Answered."));
            wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
            browser.findElement(By.id("input")).sendKeys(question);
            browser.findElement(By.id("send")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Answered."));
        }
        By active = By.cssSelector("#sessions li.active .session-title");
        wait.until(ExpectedConditions.textToBe(active, questions[1]));
        // The list is drawn again after each answer: read it whole, until it holds both, newest first.
        wait.until(d -> {
            try {
                List<String> titles = d.findElements(By.cssSelector("#sessions li .session-title")).stream()
                        .map(WebElement::getText).toList();
                return titles.size() >= 2 && titles.get(0).equals(questions[1]) && titles.get(1).equals(questions[0]);
            } catch (org.openqa.selenium.StaleElementReferenceException redrawn) {
                return false;
            }
        });

        browser.findElement(By.cssSelector("#sessions li.active .session-rename")).click();
        browser.switchTo().alert().sendKeys("Design review");
        browser.switchTo().alert().accept();
        wait.until(ExpectedConditions.textToBe(active, "Design review"));
        browser.navigate().refresh();
        wait.until(ExpectedConditions.textToBe(active, "Design review")); // stored, not only shown

        // Renaming the older chat keeps it where it is: second, under its new name, also after a reload.
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#sessions li:nth-child(2) .session-rename"))).click();
        browser.switchTo().alert().sendKeys("Capitals");
        browser.switchTo().alert().accept();
        wait.until(d -> firstTitles(2).equals(List.of("Design review", "Capitals")));
        browser.navigate().refresh();
        wait.until(ExpectedConditions.textToBe(active, "Design review"));
        wait.until(d -> firstTitles(2).equals(List.of("Design review", "Capitals")));
    }

    /** The first {@code count} titles of the chat list, top down (empty while it is drawn again). */
    private List<String> firstTitles(int count) {
        try {
            List<String> titles = browser.findElements(By.cssSelector("#sessions li .session-title")).stream()
                    .map(WebElement::getText).toList();
            return titles.size() < count ? List.of() : titles.subList(0, count);
        } catch (org.openqa.selenium.StaleElementReferenceException redrawn) {
            return List.of();
        }
    }

    /** Tables and block quotes are drawn; whatever HTML the model writes stays text, at a desk's and a phone's width. */
    @Test
    void tablesAndBlockQuotesAreRenderedAndTheModelsHtmlStaysText() throws Exception {
        fake.enqueue(Reply.openAiText("Here:\n\n| Tool | Safety |\n|---|:-:|\n| fs_read | safe |\n",
                "| exec | <b>dangerous</b> |\n\n> quoted <img src=x onerror=\"window.pwned=1\"> **words**\n> and more"));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys("show me a table");
        browser.findElement(By.id("send")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "and more"));
        WebElement body = browser.findElement(By.cssSelector(".msg.assistant:last-of-type .body"));
        assertEquals(List.of("Tool", "Safety"), body.findElements(By.cssSelector("table thead th")).stream().map(WebElement::getText).toList());
        assertEquals(List.of("fs_read", "safe", "exec", "<b>dangerous</b>"),
                body.findElements(By.cssSelector("table tbody td")).stream().map(WebElement::getText).toList(), "HTML in a cell is text");
        assertEquals("center", body.findElements(By.cssSelector("table td")).get(1).getCssValue("text-align"));
        WebElement quote = body.findElement(By.tagName("blockquote"));
        assertTrue(quote.getText().contains("quoted <img src=x") && quote.getText().contains("and more"), quote.getText());
        assertEquals("words", quote.findElement(By.tagName("strong")).getText());
        assertTrue(body.findElements(By.tagName("img")).isEmpty() && body.findElements(By.tagName("b")).isEmpty(), "no markup from the model");
        assertEquals(null, browser.executeScript("return window.pwned;"));
        assertFalse(body.getText().contains("|"), "no raw table left: " + body.getText());
        screenshot("chat-page-table-1280");
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        wait.until(d -> d.findElement(By.id("sidebar")).getRect().getX() + d.findElement(By.id("sidebar")).getRect().getWidth() <= 0);
        assertEquals(Boolean.TRUE, browser.executeScript("const m = document.getElementById('messages');"
                + " return m.scrollWidth <= m.clientWidth;"), "the conversation does not scroll sideways at 390 px");
        screenshot("chat-page-table-390");
    }

    /**
     * The server unreachable: the page tries again at most 5 s apart, and at once when the page is seen again or the
     * network is back (a blocked {@code api/me} stands for the server that is down).
     */
    @Test
    void reconnectingWaitsAtMostFiveSecondsAndTriesAtOnceWhenThePageIsSeenOrTheNetworkIsBack() throws Exception {
        By status = By.id("status");
        WebDriverWait slow = new WebDriverWait(browser, Duration.ofSeconds(25));
        for (String trigger : List.of("document.dispatchEvent(new Event('visibilitychange'))", "window.dispatchEvent(new Event('online'))")) {
            browser.executeCdpCommand("Network.enable", java.util.Map.of());
            browser.executeCdpCommand("Network.setBlockedURLs", java.util.Map.of("urls", List.of("*api/me*")));
            browser.get(base.toString());
            // 1, 1, 2, 4 s, then 5 s and never longer (it was 8, 16, 30 s)
            slow.until(ExpectedConditions.textToBePresentInElementLocated(status, "trying again in 4 s"));
            slow.until(ExpectedConditions.textToBePresentInElementLocated(status, "trying again in 5 s"));
            screenshot("chat-page-reconnecting");
            browser.executeCdpCommand("Network.setBlockedURLs", java.util.Map.of("urls", List.of()));
            long seen = System.nanoTime();
            browser.executeScript(trigger);
            new WebDriverWait(browser, Duration.ofSeconds(3)).until(ExpectedConditions.textToBe(status, "connected"));
            assertTrue(System.nanoTime() - seen < 3_000_000_000L, trigger + " tried at once");
        }
    }

    @Test
    void theAnswerIsWrittenOnThePageAsTheModelWritesIt() throws Exception {
        FakeLlmServer.PacedText answer = FakeLlmServer.PacedText.openAi(StreamingIT.GAP, StreamingIT.CHUNKS);
        fake.enqueue(answer);
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys("tell me slowly");
        browser.findElement(By.id("send")).click();

        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "answer"));
        String early = browser.findElement(By.cssSelector(".msg.assistant .body")).getText();
        boolean modelStillWriting = !answer.finished().isDone();
        screenshot("chat-page-streaming");
        assertTrue(modelStillWriting && !early.contains("written."), "the page showed \"" + early + "\" while the model wrote");

        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"),
                String.join("", StreamingIT.CHUNKS).trim()));
    }

    @Test
    void aFailedTurnShowsTheError() throws Exception {
        fake.enqueue(Reply.status(401, "{\"error\":{\"message\":\"bad key\"}}"));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys("hello");
        browser.findElement(By.id("send")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".msg.error")));
        screenshot("chat-page-error");
        assertTrue(browser.findElement(By.cssSelector(".msg.error")).getText().contains("lango.providers.openai.api-key"));
        assertTrue(browser.findElements(By.cssSelector(".msg.assistant")).stream().allMatch(m -> !m.getText().isBlank()),
                "no empty bubble above the error");
        assertTrue(browser.findElement(By.cssSelector(".msg.error .retry")).isDisplayed(), "the error offers Retry");
    }

    @Test
    void anAnswerIsCopiedAndRetriedOnANarrowDarkScreen() throws Exception {
        String ask = "what is two and two " + System.nanoTime();
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> Reply.delayed(Duration.ofMillis(1500),
                Reply.openAiText(asked.incrementAndGet() == 1 ? "Four." : "Still four.")));
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(360, 780));
        browser.executeCdpCommand("Emulation.setEmulatedMedia", java.util.Map.of("features",
                List.of(java.util.Map.of("name", "prefers-color-scheme", "value", "dark"))));
        browser.get(base.toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.executeScript("window.copied = null; Object.defineProperty(navigator, 'clipboard', {configurable: true,"
                + " value: {writeText: t => { window.copied = t; return Promise.resolve(); }}});");
        wait.until(d -> browser.findElement(By.id("model")).getAttribute("textContent").contains("gpt-4o-mini"));

        browser.findElement(By.id("input")).sendKeys(ask);
        browser.findElement(By.id("send")).click();
        // the answer is shown to be on its way before its first word (which comes 1.5 s later)
        new WebDriverWait(browser, Duration.ofSeconds(1)).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".msg.assistant .thinking-dots")));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Four."));
        browser.findElement(By.cssSelector(".msg.assistant .copy")).click();
        wait.until(d -> "Four.".equals(browser.executeScript("return window.copied;")));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .copy"), "Copied"));

        browser.findElement(By.cssSelector(".msg.assistant .retry")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#messages"), "Still four."));
        assertEquals(2, asked.get(), "Retry sent the question again");
        assertEquals(1, browser.findElements(By.cssSelector(".msg.user")).size(), "the question once");
        assertEquals(List.of("Still four."), browser.findElements(By.cssSelector(".msg.assistant .body")).stream()
                .map(WebElement::getText).toList(), "the new answer in place of the old one");
        String sent = fake.last().body();
        assertEquals(1, sent.split(java.util.regex.Pattern.quote(ask), -1).length - 1, "the model read the question once: " + sent);
        assertFalse(sent.contains("Four."), "and not the answer it replaced: " + sent);
        screenshot("chat-page-narrow-dark");

        assertEquals(Boolean.TRUE, browser.executeScript("return document.documentElement.scrollWidth <= document.documentElement.clientWidth;"),
                "no sideways scrolling at 360 px");
        browser.navigate().refresh(); // the replaced answer stays stored, superseded, and is not shown
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#messages"), "Still four."));
        assertEquals(1, browser.findElements(By.cssSelector(".msg.user")).size(), "the question once after a reload");
        assertEquals(List.of("Still four."), browser.findElements(By.cssSelector(".msg.assistant .body")).stream()
                .map(WebElement::getText).toList());
        String background = (String) browser.executeScript("return getComputedStyle(document.body).backgroundColor;");
        int[] rgb = java.util.Arrays.stream(background.replaceAll("[^0-9,]", "").split(",")).limit(3).mapToInt(Integer::parseInt).toArray();
        assertTrue(rgb[0] + rgb[1] + rgb[2] < 3 * 80, "a dark page when the system is dark: " + background);
    }

    private void screenshot(String name) throws Exception {
        ItBrowser.screenshot(browser, name);
    }

    /** ADK's own dev UI (google-adk-dev 1.6.0's browser bundle) against Lango's API: nobody here wrote that client. */
    @Test
    void adkDevUiListsTheAppCreatesASessionAndShowsTheAnswer() throws Exception {
        fake.enqueue(Reply.openAiText("Hello from ", "Lango."));
        browser.get(base + "dev-ui/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.urlContains("app=lango"));
        WebElement input = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("textarea.chat-input-box")));

        input.sendKeys("hello from the dev ui");
        input.sendKeys(org.openqa.selenium.Keys.ENTER);

        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Hello from Lango."));
        screenshot("adk-dev-ui");
        assertTrue(browser.findElement(By.tagName("body")).getText().contains("hello from the dev ui"));
        assertTrue(fake.last().json().toString().contains("hello from the dev ui"), "the model got the dev UI's message");
    }

    /**
     * The dev UI with no internet: nothing is fetched from outside this server (its fonts are served
     * locally, icons render), every route it calls is answered, and its console shows no error.
     */
    @Test
    void adkDevUiLoadsNothingFromTheInternetAndItsConsoleStaysClean() throws Exception {
        fake.enqueue(Reply.openAiText("Clean ", "console."));
        browser.get(base + "dev-ui/");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.until(ExpectedConditions.urlContains("app=lango"));
        WebElement input = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("textarea.chat-input-box")));
        input.sendKeys("is the console clean?");
        input.sendKeys(org.openqa.selenium.Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Clean console."));
        Thread.sleep(2_000); // the calls the UI makes after a turn (session, traces, graphs)
        screenshot("adk-dev-ui-offline");

        java.util.List<?> resources = (java.util.List<?>) browser.executeScript(
                "return performance.getEntriesByType('resource').map(e => e.name)");
        String origin = base.getProtocol() + "://" + base.getHost() + ":" + base.getPort() + "/";
        java.util.List<?> outside = resources.stream().filter(r -> !String.valueOf(r).startsWith(origin)).toList();
        assertTrue(outside.isEmpty(), "fetched from outside this server: " + outside);
        assertEquals(Boolean.TRUE, browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "document.fonts.load('24px \"Material Symbols Outlined\"').then(f => done(f.length > 0));"), "icons render");
        java.util.List<String> errors = browser.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll()
                .stream().filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
                .map(e -> e.getMessage()).toList();
        assertTrue(errors.isEmpty(), "console errors: " + errors);
    }
}
