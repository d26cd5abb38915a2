package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No page of another site drives the server, with authentication off (the default, where a forged request
 * is the operator's): every route of the OpenAPI document that changes state, sent as a browser sends a
 * cross-site form or text POST (no preflight), is refused before it runs; a cross-site A2A message starts no
 * turn and a cross-site session create stores nothing; the server's own pages and clients without an Origin
 * still pass. With authentication on, AttackerIT walks the same routes.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@ItClassOrder.OnTheDefaultDeployment
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class CrossSiteIT extends FakeLlmIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Set<String> CHANGING = Set.of("post", "put", "patch", "delete");

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.war();
    }

    @ArquillianResource
    URL base;

    /** Each way a browser tells a request came from another site: its Origin, or only its Sec-Fetch-Site. */
    private static final List<Map<String, String>> FOREIGN = List.of(
            Map.of("Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"),
            Map.of("Origin", "null"),
            Map.of("Sec-Fetch-Site", "cross-site"),
            Map.of("Sec-Fetch-Site", "same-site"));

    /**
     * Every POST, PUT, PATCH and DELETE route of the server's OpenAPI document, sent cross-site with {@code credential}
     * (null: none) in each foreign way: all refused with 403 origin_not_allowed. Returns how many routes were walked.
     */
    static int everyChangingRouteIsRefusedCrossSite(URL base, String credential) throws Exception {
        String server = base.getProtocol() + "://" + base.getHost() + ":" + base.getPort();
        HttpResponse<String> openapi = HTTP.send(HttpRequest.newBuilder(URI.create(server + "/openapi"))
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, openapi.statusCode(), openapi.body());
        JsonNode paths = TestJson.MAPPER.readTree(openapi.body()).path("paths");
        List<String> walked = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> route = it.next();
            String path = route.getKey();
            int api = path.indexOf("/api/");
            String local = api >= 0 ? path.substring(api + 1) : path.replaceFirst("^/", "");
            local = local.replaceAll("\\{[^}]+}", "x-" + RUN);
            for (Iterator<String> methods = route.getValue().fieldNames(); methods.hasNext(); ) {
                String method = methods.next();
                if (!CHANGING.contains(method)) {
                    continue;
                }
                for (Map<String, String> foreign : FOREIGN) {
                    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + local))
                            .method(method.toUpperCase(java.util.Locale.ROOT), HttpRequest.BodyPublishers.ofString(
                                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\"}"))
                            .header("Content-Type", "text/plain");
                    foreign.forEach(request::header);
                    if (credential != null) {
                        request.header("Authorization", "Bearer " + credential);
                    }
                    HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(403, answer.statusCode(), method + " " + local + " " + foreign + ": " + answer.body());
                    assertTrue(answer.body().contains("origin_not_allowed"), method + " " + local + ": " + answer.body());
                }
                walked.add(method + " " + local);
            }
        }
        assertTrue(walked.size() >= 20, "the document lists the changing routes: " + walked);
        assertTrue(walked.stream().anyMatch(w -> w.contains("api/a2a")), walked.toString());
        assertTrue(walked.stream().anyMatch(w -> w.startsWith("post api/run")), walked.toString());
        return walked.size();
    }

    @Test
    void everyRouteThatChangesStateRefusesAnotherSitesPageWithAuthenticationOff() throws Exception {
        everyChangingRouteIsRefusedCrossSite(base, null);
        assertTrue(fake.requests().isEmpty(), "no turn reached the model: " + fake.requests());
    }

    @Test
    void aCrossSiteA2aMessageStartsNoTurnAndACrossSiteSessionIsNotStored() throws Exception {
        fake.enqueue(Reply.openAiText("forged"));
        String message = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":{\"role\":\"user\","
                + "\"messageId\":\"m-" + RUN + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"write pwned.txt\"}]}}}";
        HttpResponse<String> a2a = HTTP.send(HttpRequest.newBuilder(URI.create(base + "api/a2a"))
                .POST(HttpRequest.BodyPublishers.ofString(message)).header("Content-Type", "text/plain")
                .header("Origin", "https://evil.example").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, a2a.statusCode(), a2a.body());
        String session = "api/apps/lango/users/user/sessions/forged-" + RUN;
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(base + session))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "text/plain")
                .header("Sec-Fetch-Site", "cross-site").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, created.statusCode(), created.body());
        assertEquals(404, HTTP.send(HttpRequest.newBuilder(URI.create(base + session)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode(), "nothing was stored");
        assertTrue(fake.requests().isEmpty(), "no turn reached the model");
    }

    @Test
    void theServersOwnPagesAndClientsWithoutAnOriginStillPass() throws Exception {
        String own = base.getProtocol() + "://" + base.getHost() + ":" + base.getPort();
        String session = "api/apps/lango/users/user/sessions/own-" + RUN;
        HttpResponse<String> fromPage = HTTP.send(HttpRequest.newBuilder(URI.create(base + session))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json")
                .header("Origin", own).header("Sec-Fetch-Site", "same-origin").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, fromPage.statusCode(), fromPage.body());
        HttpResponse<String> fromCurl = HTTP.send(HttpRequest.newBuilder(URI.create(base + session))
                .DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertFalse(fromCurl.statusCode() >= 400, fromCurl.body());
    }
}
