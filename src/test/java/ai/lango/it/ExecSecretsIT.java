package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * exec on the real server, whose environment holds the provider key (pom.xml sets
 * LANGO_PROVIDERS_OPENAI_API_KEY for the test servers): the command sees none of the server's
 * LANGO_* variables, and a secret that reaches a tool result anyway (read from a file) is masked
 * before the model, the database or a client sees it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class ExecSecretsIT {

    private static final String KEY = "sk-it-secret-key";

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-exec.war"), "lango.tools.exec.enabled=true\nlango.security.approval.policy=none\n");
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "api/" + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void execSeesNoServerSecretAndSecretsInToolOutputAreMasked() throws Exception {
        Path workspace = ItWorkspace.dir();
        Files.writeString(workspace.resolve("leak.txt"), "the key is " + KEY + "\n");
        String session = "exec-" + UUID.randomUUID();
        try (FakeLlmServer fake = FakeLlmServer.start(ItPorts.FAKE_LLM)) {
            // Answered by this turn's own words: a turn an earlier test left running must not take these replies.
            String ask = "show env " + session;
            fake.route(FakeLlmServer.lastUserMessageContains(ask), r -> r.body().contains("\"role\":\"tool\"")
                    ? Reply.openAiText("Done.") : Reply.openAiToolCall("call_env", "exec", "{\"command\":\"env; cat leak.txt\"}"));
            HttpResponse<String> run = call("POST", "run", "{\"appName\":\"lango\",\"userId\":\"exec-user\",\"sessionId\":\""
                    + session + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"text\":\"" + ask + "\"}]}}");
            assertEquals(200, run.statusCode(), run.body());

            String sentToModel = fake.requests().stream().filter(FakeLlmServer.lastUserMessageContains(ask))
                    .reduce((first, second) -> second).orElseThrow().body();
            // The session is exec-user's, who does not administer: a configured secret is unnamed to its turns.
            assertTrue(sentToModel.contains("the key is [SECRET]"), sentToModel);
            assertFalse(sentToModel.contains("LANGO_"), "no LANGO_* variable reached the command: " + sentToModel);
            assertFalse(sentToModel.contains(KEY), "the key never reaches the model");
            assertFalse(run.body().contains(KEY), "nor the client");
            String stored = call("GET", "admin/sessions/" + session, null).body();
            assertTrue(stored.contains("the key is [SECRET]"), stored);
            assertFalse(stored.contains(KEY), "nor the database");
        }
    }
}
