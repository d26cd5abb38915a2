package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import com.fasterxml.jackson.databind.JsonNode;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * ADK's dev UI with authentication on: the chat page's sign-in sets an HttpOnly, SameSite=Strict cookie that /api
 * and /dev-ui take besides the bearer header. Tried as an attacker would (the cookie never set from a cookie, another
 * site's page refused, a revoked token's cookie worthless, another user's routes closed) and as a person would: the
 * dev UI opened before signing in goes to the page's sign-in and back, chats as that user, and its Evals tab makes
 * a case of the session, runs it and shows it passed.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag(ItDatabase.HSQLDB_TAG) // access to the API and a page: the database underneath is tested elsewhere
class DevUiSignInIT extends FakeLlmIT {

    private static final String OPERATOR = "op-dev-ui-signin-" + "0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-dev-ui-signin.war"), "lango.auth.token=" + OPERATOR + "\n");
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> send(String method, String path, String authorization, String cookie, String origin)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofString("{}") : HttpRequest.BodyPublishers.noBody());
        if (method.equals("POST")) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", "Bearer " + authorization);
        }
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theSignInCookieCountsOnlyAsTheBearerItCameFromAndOnlyFromThisSite() throws Exception {
        ItCallers callers = new ItCallers(base, OPERATOR);
        String user = "dana-" + RUN;
        String token = callers.issue(user, false);
        String other = "eli-" + RUN;
        callers.issue(other, false);

        HttpResponse<String> signedIn = send("POST", "api/signin", token, null, null);
        assertEquals(200, signedIn.statusCode(), signedIn.body());
        String setCookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        String path = URI.create(base.toString()).getPath();
        for (String attribute : new String[] {"HttpOnly", "SameSite=Strict", "Max-Age=28800", "Path=" + path}) {
            assertTrue(setCookie.contains(attribute), attribute + " in " + setCookie);
        }
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        assertEquals("lango_signin=" + token, cookie);

        // the cookie is the user's credential on /api, for their routes only
        assertEquals(200, send("GET", "api/apps/lango/users/" + user + "/sessions", null, cookie, null).statusCode());
        assertEquals(403, send("GET", "api/apps/lango/users/" + other + "/sessions", null, cookie, null).statusCode());
        assertEquals(403, send("GET", "api/admin/users", null, cookie, null).statusCode());
        assertEquals(401, send("GET", "api/apps/lango/users/" + user + "/sessions", null, null, null).statusCode());
        // a page of another site cannot use it to change anything (the browser would not even send it: SameSite)
        HttpResponse<String> crossSite = send("POST", "api/apps/lango/users/" + user + "/sessions", null, cookie,
                "http://attacker.example");
        assertEquals(403, crossSite.statusCode(), crossSite.body());
        assertTrue(crossSite.body().contains("origin_not_allowed"), crossSite.body());
        assertEquals(200, send("POST", "api/apps/lango/users/" + user + "/sessions", null, cookie, null).statusCode());
        // a cookie is only ever set from the bearer header the filter accepted, never from a cookie
        assertEquals(400, send("POST", "api/signin", null, cookie, null).statusCode());
        assertEquals(401, send("POST", "api/signin", "lango_forged-" + RUN, null, null).statusCode());

        // the dev UI: a person not signed in goes to the page's sign-in; a signed-in one gets it as their user
        HttpResponse<String> anonymous = send("GET", "dev-ui/?app=lango", null, null, null);
        assertEquals(302, anonymous.statusCode());
        assertTrue(anonymous.headers().firstValue("Location").orElseThrow().endsWith("/?then=dev-ui"),
                anonymous.headers().toString());
        HttpResponse<String> asUser = send("GET", "dev-ui/?app=lango", null, cookie, null);
        assertEquals(302, asUser.statusCode());
        assertTrue(asUser.headers().firstValue("Location").orElseThrow().endsWith("/dev-ui/?app=lango&userId=" + user),
                asUser.headers().toString());
        assertEquals(200, send("GET", "dev-ui/?app=lango&userId=" + user, null, cookie, null).statusCode());

        // signing out removes it; a revoked token's cookie is worth nothing
        HttpResponse<String> signedOut = send("DELETE", "api/signin", null, cookie, null);
        assertEquals(204, signedOut.statusCode());
        assertTrue(signedOut.headers().firstValue("Set-Cookie").orElseThrow().contains("Max-Age=0"));
        assertEquals(204, callers.call("DELETE", "api/admin/users/" + user, OPERATOR, null).statusCode());
        assertEquals(401, send("GET", "api/apps/lango/users/" + user + "/sessions", null, cookie, null).statusCode());
        assertEquals(302, send("GET", "dev-ui/?app=lango&userId=" + user, null, cookie, null).statusCode());
    }

    @Test
    void aSignedInPersonUsesTheDevUiAndItsEvalTab() throws Exception {
        ItCallers callers = new ItCallers(base, OPERATOR);
        String user = "fay-" + RUN;
        String token = callers.issue(user, false);
        String ask = "what is in my workspace " + RUN;
        fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> {
            JsonNode messages = r.json().path("messages");
            boolean answered = "tool".equals(messages.path(messages.size() - 1).path("role").asText());
            return answered ? Reply.openAiText("Your workspace holds a few files.")
                    : Reply.openAiToolCall("call_" + UUID.randomUUID().toString().substring(0, 8), "fs_list", "{\"path\":\".\"}");
        });
        ChromeDriver page = ItBrowser.start();
        try {
            WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(60));
            // the dev UI first: not signed in, the page asks; signed in, the dev UI opens as this user
            page.get(base + "dev-ui/?app=lango");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token"))).sendKeys(token);
            page.findElement(By.id("token-save")).click();
            wait.until(ExpectedConditions.urlContains("dev-ui/?app=lango&userId=" + user));
            WebElement input = wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("textarea.chat-input-box")));
            input.sendKeys(ask);
            input.sendKeys(Keys.ENTER);
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "Your workspace holds a few files."));
            ItBrowser.screenshot(page, "dev-ui-signed-in-chat");
            Object cookieSeen = page.executeScript("return document.cookie");
            assertFalse(String.valueOf(cookieSeen).contains(token), "no script reads the credential: " + cookieSeen);

            String set = "signedin_" + RUN;
            EvalIT.click(wait, By.xpath("//div[@role='tab'][.//span[contains(@class,'tab-label') and normalize-space()='Evals']]"));
            EvalIT.click(wait, By.xpath("//app-eval-tab//*[contains(@class,'info-create') or (self::button and .//mat-icon[normalize-space()='add'])]"));
            EvalIT.replace(wait, By.cssSelector("mat-dialog-container input"), set);
            EvalIT.click(wait, By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("mat-dialog-container")));
            EvalIT.click(wait, By.xpath("//app-eval-tab//div[contains(@class,'eval-set-name') and normalize-space()='" + set + "']"));
            EvalIT.click(wait, By.xpath("//app-eval-tab//button[contains(.,'From Current Session')]"));
            EvalIT.replace(wait, By.cssSelector("mat-dialog-container input"), "workspace_" + RUN);
            EvalIT.click(wait, By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("mat-dialog-container")));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("app-eval-tab"), "workspace_" + RUN));
            EvalIT.click(wait, By.xpath("//app-eval-tab//button[contains(.,'Run All')]"));
            EvalIT.click(wait, By.cssSelector("app-run-eval-config-dialog button.save-button"));
            WebElement passed = new WebDriverWait(page, Duration.ofSeconds(120)).until(ExpectedConditions
                    .visibilityOfElementLocated(By.cssSelector("app-eval-tab .status-card__summary .status-card__passed")));
            assertEquals("1 PASS", passed.getText().trim());
            ItBrowser.screenshot(page, "dev-ui-signed-in-eval-passed");
        } catch (RuntimeException | AssertionError e) {
            ItBrowser.screenshot(page, "dev-ui-signed-in-failed");
            throw e;
        } finally {
            page.quit();
        }
        // the set is the user's own: theirs to read, not another user's
        HttpResponse<String> sets = callers.call("GET", "api/apps/lango/eval_sets", token, null);
        assertTrue(sets.body().contains("signedin_" + RUN), sets.body());
    }
}
