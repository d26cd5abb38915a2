package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The chat page as a user who is not the operator sees it, in Debian's Chromium: signed in with an
 * API token an administrator issued, the page reads that user's sessions only (no admin route is
 * called, the console stays clean); approval cards say in words how each request ended — approved,
 * denied, expired — with legible buttons (WCAG AA contrast, light and dark), and are rebuilt in that
 * state after a reload; Stop ends a slow answer and the session takes the next message at once; a
 * session is deleted after its user confirms; at a phone's 390 px nothing scrolls sideways. A
 * screenshot of each state is kept in target/screenshots.
 */
@ExtendWith(ArquillianExtension.class)
@Tag(ItDatabase.HSQLDB_TAG) // a page: the API it reads is tested on each database
@RunAsClient
class ChatPageUserIT extends FakeLlmIT {

    private static final String OPERATOR = "op-page-user-" + "0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-page-user.war"), "lango.auth.token=" + OPERATOR + "\n"
                + "lango.security.approval.timeout=PT5S\n"
                + "lango.tools.exec.enabled=true\n");
    }

    @ArquillianResource
    URL base;

    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void start() {
        browser = ItBrowser.start();
        wait = new WebDriverWait(browser, Duration.ofSeconds(30));
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** Signs in on the page as a new user of this run; returns the user's id. */
    private String signIn(String name) throws Exception {
        String user = name + "-" + RUN;
        String token = new ItCallers(base, OPERATOR).issue(user, false);
        browser.get(base.toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token"))).sendKeys(token);
        browser.findElement(By.id("token-save")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "connected"));
        assertEquals("Signed in as " + user, browser.findElement(By.id("user-name")).getText());
        return user;
    }

    private void say(String text) {
        wait.until(ExpectedConditions.elementToBeClickable(By.id("send")));
        browser.findElement(By.id("input")).sendKeys(text);
        browser.findElement(By.id("send")).click();
    }

    private void screenshot(String name) throws Exception {
        ItBrowser.screenshot(browser, name);
    }

    private List<String> consoleErrors() {
        return browser.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()).map(e -> e.getMessage()).toList();
    }

    @Test
    void aUserSignsInChatsAndReadsOnlyTheirOwnData() throws Exception {
        fake.enqueue(Reply.openAiText("Hello ", "there."));
        String user = signIn("pat");
        say("hello from the page");
        WebElement thinking = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".msg.assistant")));
        assertTrue(thinking.isDisplayed(), "something shows at once");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Hello there."));
        wait.until(ExpectedConditions.numberOfElementsToBeMoreThan(By.cssSelector("#sessions li"), 0));
        assertTrue(browser.findElement(By.cssSelector(".msg.assistant .copy")).isDisplayed(), "an answer can be copied");
        assertEquals(0, browser.findElements(By.cssSelector(".msg.assistant .body:empty")).size(), "no empty bubble");
        // the fake model reports 12 input and 2 output tokens: the session's and the day's usage show
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("usage"), "This chat: 14 tokens"));
        assertTrue(browser.findElement(By.id("usage")).getText().contains("today: 14 tokens"), browser.findElement(By.id("usage")).getText());
        screenshot("page-user-chat");

        List<?> called = (List<?>) browser.executeScript("return performance.getEntriesByType('resource').map(e => e.name)");
        assertTrue(called.stream().noneMatch(url -> String.valueOf(url).contains("/api/admin/")), "no admin route: " + called);
        assertTrue(called.stream().anyMatch(url -> String.valueOf(url).contains("/users/" + user + "/sessions")), String.valueOf(called));
        assertEquals(List.of(), consoleErrors());
        HttpResponse<String> stored = new ItCallers(base, OPERATOR).call("GET", "api/apps/lango/users/" + user + "/sessions", OPERATOR,
                null);
        assertTrue(stored.body().contains("hello from the page"), "the page's turn is the user's: " + stored.body());
    }

    /** A spent budget stays spent: the page says why and offers no Retry that cannot succeed. */
    @Test
    void aSpentBudgetIsShownWithoutARetry() throws Exception {
        fake.enqueue(Reply.openAiText("Within the budget."));
        String user = signIn("rae");
        assertEquals(200, new ItCallers(base, OPERATOR).call("PUT", "api/admin/users/" + user, OPERATOR,
                "{\"tokensPerDay\":1}").statusCode());
        say("first question");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Within the budget."));
        say("second question");
        WebElement refused = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".msg.error")));
        assertTrue(refused.getText().contains("tokensPerDay"), "names the user's own limit: " + refused.getText());
        assertTrue(refused.findElements(By.cssSelector(".retry")).isEmpty(), "no Retry for a spent budget");
        assertEquals(1, fake.requests().size(), "the refused turn never reached the model");
        screenshot("page-user-budget-spent");
    }

    @Test
    void approvalCardsSayHowEachRequestEndedAndAreRebuiltAfterAReload() throws Exception {
        signIn("quinn");
        // Approved: the call runs, then the tool says so.
        fake.enqueue(Reply.openAiToolCall("call_a", "fs_delete", "{\"path\":\"gone-" + RUN + ".txt\"}"))
                .enqueue(Reply.openAiText("Deleted, or tried."));
        say("delete a file");
        WebElement first = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".approval[data-state='pending']")));
        assertTrue(first.findElement(By.cssSelector(".approval-left")).getText().startsWith("Waiting for your decision"));
        assertTrue(first.getText().contains("fs_delete"));
        assertEquals("waiting for approval", wait.until(d -> {
            String state = d.findElement(By.cssSelector("details.tool .tool-state")).getText();
            return state.equals("running") ? null : state;
        }), "no ✓ before it ran");
        for (String dark : List.of("light", "dark")) {
            browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of(Map.of("name",
                    "prefers-color-scheme", "value", dark))));
            for (String button : List.of(".approval-approve", ".approval-deny")) {
                double ratio = contrast(first.findElement(By.cssSelector(button)));
                assertTrue(ratio >= 4.5, button + " in " + dark + " mode: contrast " + ratio);
            }
            screenshot("page-approval-pending-" + dark);
        }
        browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        first.findElement(By.cssSelector(".approval-approve")).click();
        wait.until(d -> "approved".equals(first.getAttribute("data-state")));
        assertTrue(first.findElements(By.cssSelector("button")).isEmpty(), "no buttons once decided");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Deleted, or tried."));
        screenshot("page-approval-approved");

        // Denied.
        fake.enqueue(Reply.openAiToolCall("call_d", "fs_delete", "{\"path\":\"kept-" + RUN + ".txt\"}"))
                .enqueue(Reply.openAiText("Kept it."));
        say("delete another");
        WebElement second = wait.until(d -> d.findElements(By.cssSelector(".approval")).size() == 2
                ? d.findElements(By.cssSelector(".approval")).get(1) : null);
        second.findElement(By.cssSelector(".approval-deny")).click();
        wait.until(d -> "denied".equals(second.getAttribute("data-state")));
        assertTrue(second.findElement(By.cssSelector(".approval-left")).getText().startsWith("Denied"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant:last-of-type .body"), "Kept it."));
        assertTrue(browser.findElements(By.cssSelector("details.tool .tool-state")).get(1).getText().startsWith("✗"),
                "a denied call is ✗");

        // Expired: nobody answers; the server says so.
        fake.enqueue(Reply.openAiToolCall("call_e", "fs_delete", "{\"path\":\"late-" + RUN + ".txt\"}"))
                .enqueue(Reply.openAiText("Nobody answered."));
        say("delete a third");
        WebElement third = wait.until(d -> d.findElements(By.cssSelector(".approval")).size() == 3
                ? d.findElements(By.cssSelector(".approval")).get(2) : null);
        wait.until(d -> "expired".equals(third.getAttribute("data-state")));
        assertTrue(third.findElements(By.cssSelector("button")).isEmpty() && third.getText().contains("Expired"), third.getText());
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant:last-of-type .body"),
                "Nobody answered."));
        screenshot("page-approval-expired");

        browser.navigate().refresh();
        wait.until(d -> d.findElements(By.cssSelector(".approval")).size() == 3);
        List<WebElement> cards = browser.findElements(By.cssSelector(".approval"));
        assertEquals(List.of("approved", "denied", "expired"), cards.stream().map(c -> c.getAttribute("data-state")).toList());
        assertFalse(browser.findElement(By.id("messages")).getText().contains("adk_request_confirmation"),
                "never a raw confirmation row");
        screenshot("page-approval-reloaded");
        assertEquals(List.of(), consoleErrors());
    }

    /** The WCAG contrast ratio of an element's text colour against its background colour. */
    private double contrast(WebElement element) {
        @SuppressWarnings("unchecked")
        List<List<Number>> colours = (List<List<Number>>) browser.executeScript("const s = getComputedStyle(arguments[0]);"
                + "const rgb = c => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);"
                + "return [rgb(s.color), rgb(s.backgroundColor)];", element);
        double text = luminance(colours.get(0));
        double background = luminance(colours.get(1));
        return (Math.max(text, background) + 0.05) / (Math.min(text, background) + 0.05);
    }

    private static double luminance(List<Number> rgb) {
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            double v = rgb.get(i).doubleValue() / 255;
            c[i] = v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        }
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    }

    @Test
    void stopEndsASlowAnswerAndTheSessionTakesTheNextMessageAtOnce() throws Exception {
        signIn("rory");
        fake.enqueue(FakeLlmServer.PacedText.openAi(Duration.ofMillis(400), "one ", "two ", "three ", "four ", "five ", "six ",
                "seven ", "eight ", "nine ", "ten ", "eleven ", "twelve ", "thirteen ", "fourteen ", "fifteen ", "sixteen "));
        say("count slowly");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "two"));
        WebElement stop = wait.until(ExpectedConditions.elementToBeClickable(By.id("stop")));
        long stopped = System.nanoTime();
        stop.click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant"), "Stopped."));
        assertTrue(System.nanoTime() - stopped < 3_000_000_000L, "stopped where it was");
        assertFalse(browser.findElement(By.cssSelector(".msg.assistant .body")).getText().contains("sixteen"));
        assertFalse(browser.findElement(By.id("stop")).isDisplayed());
        screenshot("page-stopped");

        fake.enqueue(Reply.openAiText("Free again."));
        long asked = System.nanoTime();
        say("are you free?");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant:last-of-type .body"), "Free again."));
        assertTrue(System.nanoTime() - asked < 5_000_000_000L, "the session was free at once");
        assertTrue(fake.last().body().contains("one two"), "the model knows what it had said: " + fake.last().body());

        // The stopped answer's text is stored: a reload shows it, then how it ended.
        browser.navigate().refresh();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant:last-of-type .body"), "Free again."));
        String kept = browser.findElements(By.cssSelector(".msg.assistant .body")).get(0).getText();
        assertTrue(kept.startsWith("one two") && !kept.contains("sixteen"), kept);
        screenshot("page-stopped-reloaded");
    }

    @Test
    void onAPhoneAFirstVisitorSeesTheSignInAndTheChatOnceSignedIn() throws Exception {
        String token = new ItCallers(base, OPERATOR).issue("uma-" + RUN, false);
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.get(base.toString());
        WebElement field = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        wait.until(d -> d.findElement(By.id("sidebar")).getRect().getX() == 0); // the list is open, the form in view
        org.openqa.selenium.Rectangle at = field.getRect();
        assertTrue(at.getX() >= 0 && at.getX() + at.getWidth() <= 390 && at.getY() + at.getHeight() <= 844, "in view: " + at);
        assertEquals("true", browser.findElement(By.id("menu")).getAttribute("aria-expanded"));
        screenshot("page-phone-sign-in");
        field.sendKeys(token);
        browser.findElement(By.id("token-save")).click();
        // read as the page wrote it: the list closes at once, and Selenium reads no text out of view
        wait.until(d -> d.findElement(By.id("user-name")).getAttribute("textContent").contains("uma-" + RUN));
        wait.until(d -> d.findElement(By.id("sidebar")).getRect().getX() + d.findElement(By.id("sidebar")).getRect().getWidth() <= 0);
        assertEquals("false", browser.findElement(By.id("menu")).getAttribute("aria-expanded"));
        fake.enqueue(Reply.openAiText("Hello, phone."));
        say("hello from a phone");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Hello, phone."));
        screenshot("page-phone-signed-in");
    }

    /**
     * A command's output in its tool row is text with its line breaks (not JSON with \\n), and the time an approval
     * note names is in the reader's time zone (here Kolkata's, UTC+5:30), not the server's ISO 8601.
     */
    @Test
    void aCommandsOutputIsTextAndANotesTimeIsInTheReadersZone() throws Exception {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Kolkata"));
        signIn("vic");
        fake.enqueue(Reply.openAiToolCall("call_x1", "exec", "{\"command\":\"echo one; echo two\"}"))
                .enqueue(Reply.openAiText("Ran it."));
        say("run a command");
        WebElement first = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".approval[data-state='pending']")));
        first.findElement(By.cssSelector(".approval-approve")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Ran it."));
        browser.findElement(By.cssSelector("details.tool summary")).click();
        String output = browser.findElement(By.cssSelector("details.tool pre.result")).getText();
        assertTrue(output.contains("output:\none\ntwo") && !output.contains("\\n"), output);
        screenshot("page-exec-output");

        fake.enqueue(Reply.openAiToolCall("call_x2", "exec", "{\"command\":\"true\"}"))
                .enqueue(Reply.openAiText("Ran again."));
        say("run another");
        WebElement second = wait.until(d -> d.findElements(By.cssSelector(".approval")).size() == 2
                ? d.findElements(By.cssSelector(".approval")).get(1) : null);
        String note = second.findElement(By.cssSelector(".approval-notes")).getText();
        assertFalse(note.matches("(?s).*\\d{4}-\\d\\d-\\d\\dT.*"), "no raw ISO time: " + note);
        // Chromium writes a narrow no-break space before "PM": the marker group takes it whole or not at all
        java.util.regex.Matcher time = java.util.regex.Pattern.compile("(\\d{1,2}):(\\d\\d):\\d\\d(?:\\W{0,2}([AP]M))?").matcher(note);
        assertTrue(time.find(), note);
        int hour = time.group(3) == null ? Integer.parseInt(time.group(1))
                : Integer.parseInt(time.group(1)) % 12 + ("PM".equals(time.group(3)) ? 12 : 0);
        int shown = hour * 60 + Integer.parseInt(time.group(2));
        java.time.ZonedDateTime now = java.time.ZonedDateTime.now(java.time.ZoneId.of("Asia/Kolkata"));
        int expected = now.getHour() * 60 + now.getMinute();
        int apart = Math.abs(shown - expected);
        assertTrue(Math.min(apart, 24 * 60 - apart) <= 3, "Kolkata's time, " + now + ", in " + note);
        screenshot("page-approval-note-time");
        // at a phone's width the output and the note stay on the screen: nothing scrolls sideways
        browser.manage().window().setSize(new Dimension(390, 844));
        Number scroll = (Number) browser.executeScript("return document.documentElement.scrollWidth - document.documentElement.clientWidth");
        Number messages = (Number) browser.executeScript("const m = document.getElementById('messages'); return m.scrollWidth - m.clientWidth");
        assertEquals(0, scroll.intValue(), "the page scrolls sideways");
        assertEquals(0, messages.intValue(), "the conversation scrolls sideways");
        assertTrue(browser.findElement(By.cssSelector("details.tool pre.result")).isDisplayed());
        screenshot("page-exec-output-and-note-phone");
        second.findElement(By.cssSelector(".approval-deny")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant:last-of-type .body"), "Ran again."));
    }

    @Test
    void aSessionIsDeletedOnceItsUserConfirms() throws Exception {
        String user = signIn("sam");
        fake.enqueue(Reply.openAiText("Remember me."));
        say("a chat to delete");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "Remember me."));
        // read through the page's script: the list is drawn again whenever a session changes, which makes held elements stale
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#sessions li.active .session-title")));
        String key = (String) browser.executeScript("return document.querySelector('#sessions li.active .session-title').title");
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#sessions li.active .session-delete"))).click();
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(d -> !((List<?>) browser.executeScript(
                "return [...document.querySelectorAll('#sessions .session-title')].map(t => t.title)")).contains(key));
        assertEquals(404, new ItCallers(base, OPERATOR).call("GET", "api/apps/lango/users/" + user + "/sessions/" + key, OPERATOR,
                null).statusCode(), "deleted on the server");
        screenshot("page-deleted");
    }

    @Test
    void atAPhonesWidthNothingScrollsSidewaysAndTheChatListOpensFromTheMenu() throws Exception {
        signIn("tay");
        browser.manage().window().setSize(new Dimension(390, 844));
        fake.enqueue(Reply.openAiText("A long answer with a path /a/very/long/path/that/goes/on/and/on/without/any/break/at/all "
                + "and a table | a | b |", " and `some code that is long enough to overflow a phone's width easily`."));
        say("answer at length please, with a word that never ends: " + "x".repeat(120));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".msg.assistant .body"), "code"));
        Number scroll = (Number) browser.executeScript("return document.documentElement.scrollWidth - document.documentElement.clientWidth");
        Number messages = (Number) browser.executeScript("const m = document.getElementById('messages'); return m.scrollWidth - m.clientWidth");
        assertEquals(0, scroll.intValue(), "the page scrolls sideways");
        assertEquals(0, messages.intValue(), "the conversation scrolls sideways");
        assertFalse(browser.findElement(By.id("sidebar")).getRect().getX() >= 0, "the chat list is closed on a phone");
        screenshot("page-phone");
        browser.findElement(By.id("menu")).click();
        wait.until(d -> d.findElement(By.id("sidebar")).getRect().getX() >= 0);
        screenshot("page-phone-menu");
    }
}
