package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The vault on the real server, as its user and as an attacker would check it: a secret stored once
 * through the admin API is used by exec through its reference, and its value appears nowhere else —
 * not in a model request (the agent's or the observer's), a /ws frame (a streamed answer that splits
 * it across chunks included), an ADK API answer, a stored row or file of the data directory, or a
 * log line. The secrets_ and crypto_ tools answer references and public keys, never a value.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class SecretsIT extends FakeLlmIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String NAME = "it-token-" + RUN;
    private static final String VALUE = "vault-value-" + UUID.randomUUID();
    private static final String MASKED = "[SECRET:" + NAME + "]";
    private static final String OBSERVER_ASKS = "compress the following conversation messages";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-secrets.war"), """
                lango.tools.exec.enabled=true
                lango.tools.crypto.enabled=true
                lango.security.approval.policy=none
                lango.memory.enabled=true
                lango.memory.observation-threshold=40
                """);
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Path serverDirectory() {
        String name = "liberty-pg".equals(System.getProperty("arquillian.launch"))
                ? System.getProperty("it.server.name.pg") : System.getProperty("it.server.name");
        return Path.of("target/liberty/wlp/usr/servers", name);
    }

    @Test
    void aStoredSecretIsUsedByReferenceAndItsValueAppearsNowhereElse() throws Exception {
        HttpResponse<String> stored = call("PUT", "api/admin/secrets/" + NAME, "{\"value\":\"" + VALUE + "\"}");
        assertEquals(201, stored.statusCode(), stored.body());
        assertFalse(stored.body().contains(VALUE));
        String listed = call("GET", "api/admin/secrets", null).body();
        assertTrue(listed.contains(NAME) && !listed.contains(VALUE), listed);

        // The observer fails with the value in its error: the server logs that failure.
        fake.route(FakeLlmServer.bodyContains(OBSERVER_ASKS), r -> Reply.status(400,
                "{\"error\":{\"message\":\"invalid key " + VALUE + "\",\"type\":\"invalid_request_error\"}}"));
        String file = "used-" + RUN + ".txt";
        fake.enqueue(Reply.openAiToolCall("call_s", "exec", "{\"command\":\"printf %s {{secret:" + NAME + "}} > " + file
                        + "; IT_TOKEN={{secret:" + NAME + "}} env | grep IT_TOKEN; echo {{secret:" + NAME + "}}\"}"))
                .enqueue(Reply.openAiText("Your token is " + VALUE.substring(0, 9), VALUE.substring(9, 20),
                        VALUE.substring(20) + " indeed."));
        List<JsonNode> frames = new ArrayList<>();
        try (ItSocket socket = ItSocket.connect(base)) {
            socket.send(ItSocket.chat("s1", "secrets-" + RUN, "my token is " + VALUE + ", use it"));
            frames.addAll(socket.untilResponse());
        }
        String all = frames.toString();
        assertFalse(all.contains(VALUE), "no /ws frame carries the value: " + all);
        JsonNode response = frames.get(frames.size() - 1);
        assertEquals("Your token is " + MASKED + " indeed.", response.path("result").path("response").asText(), response.toString());
        StringBuilder chunks = new StringBuilder();
        ItSocket.events(frames, "agent.chunk").forEach(c -> chunks.append(c.path("chunk").asText()));
        assertEquals("Your token is " + MASKED + " indeed.", chunks.toString(), "the stream is masked as the whole answer");
        assertEquals(VALUE, Files.readString(ItWorkspace.dir().resolve(file)), "exec had the value");

        List<FakeLlmServer.Recorded> sent = fake.requests();
        for (FakeLlmServer.Recorded request : sent) {
            assertFalse(request.body().contains(VALUE), "no model request carries the value: " + request.body());
        }
        assertTrue(sent.stream().anyMatch(r -> r.body().contains("my token is " + MASKED)), "the user's own words are masked too: "
                + sent.stream().map(r -> r.body().substring(Math.max(0, r.body().length() - 400))).toList());
        assertTrue(sent.stream().anyMatch(r -> r.body().contains("IT_TOKEN=" + MASKED) && r.body().contains("{{secret:" + NAME + "}}")),
                "the tool's output reached the model masked, its call with the reference");

        fake.enqueue(Reply.openAiText("again " + VALUE));
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest("user", "secrets-adk-" + RUN, "again"));
        assertEquals(200, run.statusCode(), run.body());
        assertTrue(run.body().contains("again " + MASKED) && !run.body().contains(VALUE), run.body());
        String session = call("GET", "api/apps/lango/users/user/sessions/secrets-" + RUN, null).body();
        assertTrue(session.contains(MASKED) && !session.contains(VALUE), session);

        Path log = serverDirectory().resolve("logs/messages.log");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.readString(log).contains("invalid key " + MASKED) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertTrue(Files.readString(log).contains("invalid key " + MASKED), "the observer's failure is logged, masked");
        assertTrue(sent.stream().noneMatch(r -> r.body().contains(VALUE)) && fake.requests().stream()
                .filter(r -> r.body().contains(OBSERVER_ASKS)).noneMatch(r -> r.body().contains(VALUE)));

        for (Path logs : List.of(serverDirectory().resolve("logs"))) {
            assertNowhereIn(logs);
        }
        assertNowhereIn(Path.of(System.getenv("LANGO_DATA_DIR")));
        assertNotInTheDatabase();
    }

    /** Neither the value nor its UTF-16 form is in any file under {@code dir}. */
    private static void assertNowhereIn(Path dir) throws Exception {
        List<byte[]> forms = List.of(VALUE.getBytes(StandardCharsets.UTF_8), VALUE.getBytes(StandardCharsets.UTF_16BE),
                VALUE.getBytes(StandardCharsets.UTF_16LE));
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                byte[] bytes;
                try {
                    bytes = Files.readAllBytes(file);
                } catch (java.io.IOException gone) {
                    continue; // a log rolled or a temporary file went while walking
                }
                for (byte[] form : forms) {
                    assertFalse(indexOf(bytes, form) >= 0, "the value is in " + file);
                }
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** On PostgreSQL, every text column of Lango's tables, searched. */
    private static void assertNotInTheDatabase() throws Exception {
        if (!"liberty-pg".equals(System.getProperty("arquillian.launch"))) {
            return; // HSQLDB's rows are files of the data directory, searched above
        }
        try (Connection db = DriverManager.getConnection(System.getenv("LANGO_TEST_POSTGRES_URL"),
                System.getenv("LANGO_TEST_POSTGRES_USER"), null)) {
            List<String[]> columns = new ArrayList<>();
            try (ResultSet rs = db.createStatement().executeQuery("SELECT table_name, column_name FROM information_schema.columns"
                    + " WHERE table_name LIKE 'lango_%' AND data_type IN ('text', 'character varying')")) {
                while (rs.next()) {
                    columns.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
            assertTrue(columns.size() > 20, "Lango's tables were found: " + columns.size());
            for (String[] column : columns) {
                try (var query = db.prepareStatement("SELECT count(*) FROM " + column[0] + " WHERE " + column[1] + " LIKE ?")) {
                    query.setString(1, "%" + VALUE + "%");
                    try (ResultSet rs = query.executeQuery()) {
                        rs.next();
                        assertEquals(0, rs.getInt(1), "the value is in " + column[0] + "." + column[1]);
                    }
                }
            }
        }
    }

    @Test
    void theSecretsAndCryptoToolsAnswerReferencesAndPublicKeysNeverAValue() throws Exception {
        // The observer runs between turns; it must not take the replies queued for the agent.
        fake.route(FakeLlmServer.bodyContains(OBSERVER_ASKS), r -> Reply.openAiText("* the user tried tools"));
        String name = "tool-token-" + RUN;
        assertEquals(201, call("PUT", "api/admin/secrets/" + name, "{\"value\":\"tool-value-" + RUN + "-x\"}").statusCode());
        String key = "sig-" + RUN;
        JsonNode got = toolTurn("secrets_get", "{\"name\":\"" + name + "\"}");
        assertEquals("{{secret:" + name + "}}", got.path("reference").asText(), got.toString());
        assertFalse(got.toString().contains("tool-value-"), got.toString());
        assertTrue(toolTurn("secrets_list", "{}").toString().contains(name));

        JsonNode created = toolTurn("crypto_keys", "{\"action\":\"create\",\"name\":\"" + key + "\",\"type\":\"ed25519\"}");
        assertEquals("created", created.path("status").asText(), created.toString());
        String publicKey = created.path("publicKey").asText();
        JsonNode listed = toolTurn("crypto_keys", "{\"action\":\"list\"}");
        assertTrue(listed.toString().contains(publicKey), listed.toString());
        JsonNode signed = toolTurn("crypto_sign", "{\"key\":\"" + key + "\",\"data\":\"pay 1 USDC\"}");
        String signature = signed.path("signature").asText();
        assertEquals(64, java.util.Base64.getDecoder().decode(signature).length, signed.toString());
        java.security.Signature check = java.security.Signature.getInstance("Ed25519");
        check.initVerify(java.security.KeyFactory.getInstance("Ed25519").generatePublic(
                new java.security.spec.X509EncodedKeySpec(java.util.Base64.getDecoder().decode(publicKey))));
        check.update("pay 1 USDC".getBytes(StandardCharsets.UTF_8));
        assertTrue(check.verify(java.util.Base64.getDecoder().decode(signature)), "a signature the JDK verifies with the listed key");
        assertTrue(toolTurn("crypto_verify", "{\"key\":\"" + key + "\",\"data\":\"pay 1 USDC\",\"signature\":\"" + signature + "\"}")
                .path("valid").asBoolean());
        assertFalse(toolTurn("crypto_verify", "{\"key\":\"" + key + "\",\"data\":\"pay 9 USDC\",\"signature\":\"" + signature + "\"}")
                .path("valid").asBoolean());
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                toolTurn("crypto_hash", "{\"algorithm\":\"sha256\",\"data\":\"abc\"}").path("hex").asText());
        String unknown = toolTurn("exec", "{\"command\":\"echo {{secret:no-such-" + RUN + "}}\"}").path("error").asText();
        assertTrue(unknown.contains("there is no secret \"no-such-" + RUN + "\""), unknown);
    }

    private int calls;

    /** One turn over /api/run in which the model calls {@code tool}; what the tool answered, as the model read it. */
    private JsonNode toolTurn(String tool, String args) throws Exception {
        String callId = "call_" + tool + "_" + (++calls);
        fake.enqueue(Reply.openAiToolCall(callId, tool, args)).enqueue(Reply.openAiText("ok"));
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest("user", "tools-" + RUN, "go"));
        assertEquals(200, run.statusCode(), run.body());
        JsonNode answer = null;
        FakeLlmServer.Recorded last = fake.requests().stream().filter(r -> !r.body().contains(OBSERVER_ASKS))
                .reduce((first, second) -> second).orElseThrow();
        for (JsonNode message : last.json().path("messages")) {
            if ("tool".equals(message.path("role").asText()) && callId.equals(message.path("tool_call_id").asText())) {
                answer = TestJson.MAPPER.readTree(message.path("content").asText());
            }
        }
        assertTrue(answer != null, "the model read the tool's answer: " + last.body());
        return answer;
    }
}
