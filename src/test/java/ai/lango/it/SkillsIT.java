package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Skills on the real server, through the model's tool calls and its prompt: a folder dropped into
 * the skills directory is in the next turn's prompt and loads; a broken one is reported with its
 * reason and hides nothing; one removed is gone at the next turn; a resource outside its folder is
 * refused; the agent writes a skill a strict YAML reader accepts, and imports one from a zip and a .tar.gz.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class SkillsIT extends FakeLlmIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    /** A folder of this run's and database's own: the server and the test share the file system. */
    private static final Path DIR = Path.of("target", "it-skills-" + System.getProperty("arquillian.launch", "liberty") + "-" + RUN)
            .toAbsolutePath();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-skills.war"), "lango.skills.dir=" + DIR + "\n"
                + "lango.security.approval.policy=none\n");
    }

    @ArquillianResource
    URL base;

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void skill(String folder, String text) throws Exception {
        Files.createDirectories(DIR.resolve(folder));
        Files.writeString(DIR.resolve(folder).resolve("SKILL.md"), text);
    }

    /** One turn in which the model calls {@code tool}; the tool's answer as the model read it, and the first request's system prompt. */
    private Map.Entry<String, JsonNode> toolTurn(String tool, String args) throws Exception {
        String callId = "call_" + UUID.randomUUID().toString().substring(0, 8);
        fake.enqueue(Reply.openAiToolCall(callId, tool, args)).enqueue(Reply.openAiText("ok"));
        int before = fake.requests().size();
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest("user", "skills-" + UUID.randomUUID(), "go"));
        assertEquals(200, run.statusCode(), run.body());
        FakeLlmServer.Recorded first = fake.requests().get(before);
        JsonNode answer = null;
        for (JsonNode message : fake.requests().get(before + 1).json().path("messages")) {
            if (callId.equals(message.path("tool_call_id").asText())) {
                answer = TestJson.MAPPER.readTree(message.path("content").asText());
            }
        }
        assertTrue(answer != null && !answer.path("error").asText().contains("is not available"), "the tool ran: "
                + fake.requests().subList(before, fake.requests().size()).stream().map(r -> {
                    JsonNode messages = r.json().path("messages");
                    return messages.size() > 1 ? messages.get(messages.size() - 2) + " / " + messages.get(messages.size() - 1) : "";
                }).toList());
        return Map.entry(first.json().path("messages").get(0).path("content").asText(), answer);
    }

    @Test
    void aDroppedFolderIsUsableAtTheNextTurnAndABrokenOneIsReportedAndHidesNothing() throws Exception {
        String good = "deploy-" + RUN;
        skill(good, "---\nname: " + good + "\ndescription: Use when: the user says ship it\nmetadata:\n  author: ann\n---\n"
                + "# Deploy\nRun the release checklist in references/checklist.md.");
        Files.createDirectories(DIR.resolve(good).resolve("references"));
        Files.writeString(DIR.resolve(good).resolve("references/checklist.md"), "1. tag 2. push");
        skill("Broken_" + RUN, "---\nname: Broken_" + RUN + "\ndescription: never shown\n---\n");

        Map.Entry<String, JsonNode> listed = toolTurn("list_skills", "{}");
        String prompt = listed.getKey();
        assertTrue(prompt.contains("## Skills") && prompt.contains("[skill " + good + "]\n> Use when: the user says ship it"), prompt);
        assertFalse(prompt.contains("never shown"), "a broken skill is not offered");
        String all = listed.getValue().toString();
        assertTrue(all.contains("\"name\":\"" + good + "\",\"description\":\"Use when: the user says ship it\",\"usable\":true"), all);
        assertTrue(all.contains("\"usable\":false,\"problems\":[\"name: must be 1 to 64 lowercase letters"), all);

        JsonNode loaded = toolTurn("load_skill", "{\"name\":\"" + good + "\"}").getValue();
        assertTrue(loaded.path("instructions").asText().startsWith("# Deploy"), loaded.toString());
        assertEquals("references/checklist.md", loaded.path("resources").get(0).asText());
        assertEquals("1. tag 2. push", toolTurn("load_skill_resource", "{\"name\":\"" + good
                + "\",\"path\":\"references/checklist.md\"}").getValue().path("content").asText());
        String escaped = toolTurn("load_skill_resource", "{\"name\":\"" + good + "\",\"path\":\"../../pom.xml\"}").getValue()
                .path("error").asText();
        assertTrue(escaped.contains("is not a file inside the skill"), escaped);

        String admin = call("GET", "api/admin/skills", null).body();
        assertTrue(admin.contains("Broken_" + RUN) && admin.contains("name: must be"), admin);
        assertEquals(204, call("DELETE", "api/admin/skills/Broken_" + RUN, null).statusCode());
        Files.delete(DIR.resolve(good).resolve("references/checklist.md"));
        Files.delete(DIR.resolve(good).resolve("references"));
        Files.delete(DIR.resolve(good).resolve("SKILL.md"));
        Files.delete(DIR.resolve(good));
        String after = toolTurn("list_skills", "{}").getKey();
        assertFalse(after.contains(good), "a skill removed from disk is gone at the next turn");
    }

    @Test
    void theAgentWritesASkillAStrictReaderAcceptsAndImportsOneFromAZip() throws Exception {
        String made = "notes-" + RUN;
        JsonNode created = toolTurn("create_skill", "{\"name\":\"" + made + "\",\"description\":\"Write notes: short ones,"
                + " \\\"quoted\\\"\",\"body\":\"# Notes\\nKeep them short.\"}").getValue();
        assertEquals("created", created.path("status").asText(), created.toString());
        String text = Files.readString(DIR.resolve(made).resolve("SKILL.md"));
        String[] parts = text.split("---\n", 3);
        Map<?, ?> front = new ObjectMapper(new YAMLFactory()).readValue(parts[1], Map.class);
        assertEquals(made, front.get("name"), text);
        assertEquals("Write notes: short ones, \"quoted\"", front.get("description"), "strict YAML reads what was written");
        assertTrue(parts[2].strip().startsWith("# Notes"));
        String again = toolTurn("create_skill", "{\"name\":\"" + made + "\",\"description\":\"x\",\"body\":\"y\"}").getValue()
                .path("error").asText();
        assertTrue(again.contains("exists already"), again);
        String invalid = toolTurn("create_skill", "{\"name\":\"Not-Valid\",\"description\":\"x\",\"body\":\"y\"}").getValue()
                .path("error").asText();
        assertTrue(invalid.contains("name: must be") && !Files.exists(DIR.resolve("Not-Valid")), invalid);

        String zipped = "zipped-" + RUN;
        Path zip = Path.of("target", zipped + ".zip").toAbsolutePath();
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry(zipped + "/SKILL.md"));
            out.write(("---\nname: " + zipped + "\ndescription: From a zip.\n---\nZipped.").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        JsonNode imported = toolTurn("import_skill", "{\"source\":\"" + zip + "\"}").getValue();
        assertEquals("imported", imported.path("status").asText(), imported.toString());
        assertTrue(toolTurn("list_skills", "{}").getKey().contains("[skill " + zipped + "]\n> From a zip."));
        assertEquals(204, call("DELETE", "api/admin/skills/" + zipped, null).statusCode());

        // A .tar.gz, unpacked on the server itself (its class path holds one commons-io, the global library's).
        String tarred = "tarred-" + RUN;
        Path tar = Path.of("target", tarred + ".tar.gz").toAbsolutePath();
        byte[] skillMd = ("---\nname: " + tarred + "\ndescription: From a tarball.\n---\nTarred.").getBytes(StandardCharsets.UTF_8);
        try (var out = new org.apache.commons.compress.archivers.tar.TarArchiveOutputStream(
                new java.util.zip.GZIPOutputStream(Files.newOutputStream(tar)))) {
            var entry = new org.apache.commons.compress.archivers.tar.TarArchiveEntry(tarred + "/SKILL.md");
            entry.setSize(skillMd.length);
            out.putArchiveEntry(entry);
            out.write(skillMd);
            out.closeArchiveEntry();
        }
        JsonNode untarred = toolTurn("import_skill", "{\"source\":\"" + tar + "\"}").getValue();
        assertEquals("imported", untarred.path("status").asText(), untarred.toString());
        assertTrue(toolTurn("list_skills", "{}").getKey().contains("[skill " + tarred + "]\n> From a tarball."));
        assertEquals(204, call("DELETE", "api/admin/skills/" + tarred, null).statusCode());
        assertEquals(204, call("DELETE", "api/admin/skills/" + made, null).statusCode());
    }

    @Test
    void importSkillFetchesNothingFromThisMachineWhetherByDownloadOrByGit() throws Exception {
        try (java.net.ServerSocket canary = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            java.util.concurrent.atomic.AtomicInteger reached = new java.util.concurrent.atomic.AtomicInteger();
            Thread listener = new Thread(() -> {
                while (!canary.isClosed()) {
                    try (java.net.Socket ignored = canary.accept()) {
                        reached.incrementAndGet();
                    } catch (java.io.IOException closed) {
                        return;
                    }
                }
            }, "canary");
            listener.setDaemon(true);
            listener.start();
            int port = canary.getLocalPort();
            for (String source : java.util.List.of("https://127.0.0.1:" + port + "/skill.zip", "https://localhost:" + port + "/skills.git",
                    "git://127.0.0.1:" + port + "/skills.git", "ssh://git@127.0.0.1:" + port + "/skills.git", "git@localhost:skills.git",
                    "https://[::ffff:0:7f00:1]:" + port + "/skill.zip")) {
                String error = toolTurn("import_skill", "{\"source\":\"" + source + "\"}").getValue().path("error").asText();
                assertTrue(error.contains("refused") && error.contains("loopback"), source + " -> " + error);
            }
            assertEquals(0, reached.get(), "the canary on this machine was reached");
        }
    }
}
