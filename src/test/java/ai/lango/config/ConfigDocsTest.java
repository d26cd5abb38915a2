package ai.lango.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The keys are declared once ({@link Keys}); config/lango.properties and the table in
 * docs/configuration.md are rendered from the declarations, and this test fails when either file
 * says something else. {@code mvn test -Dtest=ConfigDocsTest -Dlango.docs.write=true} rewrites both.
 */
class ConfigDocsTest {

    private static final Path PROPERTIES = Path.of("config/lango.properties");
    private static final Path REFERENCE = Path.of("docs/configuration.md");
    static final String TABLE_START = "<!-- settings-table:start -->";
    static final String TABLE_END = "<!-- settings-table:end -->";
    private static final boolean WRITE = Boolean.getBoolean("lango.docs.write");

    @Test
    void propertiesFileListsEveryKeyWithItsDefault() throws Exception {
        String expected = properties();
        if (WRITE) {
            Files.writeString(PROPERTIES, expected, StandardCharsets.UTF_8);
        }
        assertEquals(expected, Files.readString(PROPERTIES, StandardCharsets.UTF_8),
                "config/lango.properties is rendered from Keys: run mvn test -Dtest=ConfigDocsTest -Dlango.docs.write=true");
    }

    @Test
    void configurationReferenceTablesEveryKey() throws Exception {
        String page = Files.readString(REFERENCE, StandardCharsets.UTF_8);
        int start = page.indexOf(TABLE_START);
        int end = page.indexOf(TABLE_END);
        assertTrue(start >= 0 && end > start, "docs/configuration.md has the markers " + TABLE_START + " and " + TABLE_END);
        String expected = page.substring(0, start + TABLE_START.length()) + "\n" + table() + page.substring(end);
        if (WRITE) {
            Files.writeString(REFERENCE, expected, StandardCharsets.UTF_8);
            page = expected;
        }
        assertEquals(expected, page,
                "docs/configuration.md's table is rendered from Keys: run mvn test -Dtest=ConfigDocsTest -Dlango.docs.write=true");
    }

    @Test
    void everyKeyIsDeclaredOnceWithADescription() {
        List<String> keys = Keys.all().stream().map(Setting::key).toList();
        assertEquals(keys.size(), Set.copyOf(keys).size(), "no key twice: " + keys);
        for (Setting<?> setting : Keys.all()) {
            assertTrue(setting.key().startsWith("lango."), setting.key());
            assertTrue(setting.description().endsWith("."), setting.key() + ": a description that is a sentence");
        }
    }

    @Test
    void adminConfigShowsEveryKeyWithTheValueInForce() {
        SettingsParser parser = new SettingsParser(key -> Optional.empty(), Path.of("/home/op"));
        parser.parse();
        var effective = parser.effective();
        for (Setting<?> setting : Keys.all()) {
            if (!setting.key().contains("<id>")) {
                assertTrue(effective.containsKey(setting.key()), "the admin API lists " + setting.key());
            }
        }
        assertEquals(5, effective.get("lango.memory.meta-reflection-threshold"), "the default in force, not 0");
        assertEquals(25, effective.get("lango.agent.max-turns"));
        assertEquals("/home/op/.lango", effective.get("lango.data.dir"));
        assertEquals("/home/op/.lango/workspace", effective.get("lango.tools.workspace"));
        assertEquals(false, effective.get("lango.knowledge.enabled"), "off without a model");
        assertEquals("PT5M", effective.get("lango.agent.request-timeout"), "durations as ISO-8601 text");
        effective.forEach((key, value) -> assertTrue(value == null || value instanceof String || value instanceof Number
                || value instanceof Boolean || value instanceof List || value instanceof Map, key + " is plain JSON: " + value));
    }

    @Test
    void adminConfigNeverShowsASecret() {
        SettingsParser parser = new SettingsParser(key -> Optional.ofNullable(switch (key) {
            case "lango.provider" -> "openai";
            case "lango.model" -> "gpt-4o";
            case "lango.providers.openai.api-key" -> "sk-very-secret-value";
            case "lango.auth.token" -> "token-very-secret";
            default -> null;
        }), Path.of("/home/op"));
        parser.parse();
        String shown = parser.effective().toString();
        assertTrue(!shown.contains("sk-very-secret-value") && !shown.contains("token-very-secret"), shown);
        assertEquals(Redaction.MASK, parser.effective().get("lango.providers.openai.api-key"));
        assertEquals(64000, parser.effective().get("lango.agent.token-budget"), "the budget derived from gpt-4o");
    }

    /** config/lango.properties: a header, then each group's keys, set to their defaults or commented out. */
    static String properties() {
        StringBuilder text = new StringBuilder();
        comment(text, "Lango configuration: every key with its default (rendered from ai.lango.config.Keys; edit"
                + " there, not here). Each key can also be set as an environment variable: lango.db.kind <-"
                + " LANGO_DB_KIND. Reference: docs/configuration.md.");
        for (Keys.Group group : Keys.groups()) {
            text.append("\n# ").append("=".repeat(4)).append(' ').append(group.title()).append(' ')
                    .append("=".repeat(Math.max(4, 94 - group.title().length()))).append('\n');
            comment(text, group.comment());
            for (Setting<?> setting : group.settings()) {
                text.append('\n');
                comment(text, setting.description() + accepts(setting));
                String value = literal(setting);
                if (value != null) {
                    text.append(setting.key()).append('=').append(value).append('\n');
                } else {
                    text.append("# ").append(setting.key()).append('=').append(setting.example()).append('\n');
                }
            }
        }
        return text.toString();
    }

    /** " Accepts …." where that says more than the type does. */
    private static String accepts(Setting<?> setting) {
        return switch (setting.type()) {
            case "boolean", "text", "secret", "path" -> "";
            default -> " Accepts " + setting.accepted() + ".";
        };
    }

    /** The default as a value the key accepts, or null when it is unset (or derived) by default. */
    private static String literal(Setting<?> setting) {
        if (setting.key().contains("<id>")) {
            return null;
        }
        String shown = setting.shownDefault();
        boolean literal = setting.fallback().isPresent() || (!shown.isEmpty() && shown.matches("[^<> ]+"));
        return literal && !shown.isEmpty() ? shown : null;
    }

    private static void comment(StringBuilder text, String prose) {
        for (String line : wrap(prose, 98)) {
            text.append("# ").append(line).append('\n');
        }
    }

    private static List<String> wrap(String prose, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : prose.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** The reference's tables: one per group. */
    static String table() {
        StringBuilder text = new StringBuilder();
        for (Keys.Group group : Keys.groups()) {
            text.append("\n### ").append(group.title()).append("\n\n").append(group.comment()).append("\n\n")
                    .append("| Key | Environment variable | Default | What it does |\n|---|---|---|---|\n");
            for (Setting<?> setting : group.settings()) {
                String accepts = accepts(setting);
                text.append("| `").append(setting.key()).append("` | `").append(setting.environmentVariable()).append("` | ")
                        .append(setting.shownDefault().isEmpty() ? "unset" : "`" + setting.shownDefault() + "`").append(" | ")
                        .append(cell(setting.description() + accepts)).append(" |\n");
            }
        }
        return text.append('\n').toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
