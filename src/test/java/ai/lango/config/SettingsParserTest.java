package ai.lango.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsParserTest {

    private static final Path HOME = Path.of("/home/ann");

    private static LangoSettings parse(Map<String, String> values) {
        return new SettingsParser(key -> Optional.ofNullable(values.get(key)), HOME).parse();
    }

    private static String error(Map<String, String> values) {
        return assertThrows(InvalidConfigurationException.class, () -> parse(values)).getMessage();
    }

    @Test
    void defaultsApplyWhenNothingIsSet() {
        LangoSettings settings = parse(Map.of());
        assertEquals(9080, settings.httpPort());
        assertEquals("localhost", settings.httpHost());
        assertEquals(Path.of("/home/ann/.lango"), settings.dataDir());
        assertEquals(LangoSettings.DbKind.H2, settings.dbKind());
        assertEquals(0, settings.tokenBudget());
        assertEquals(Duration.ZERO, settings.sessionTtl());
    }

    @Test
    void negativePortStopsTheStartNamingKeyAndAcceptedValues() {
        String message = error(Map.of("lango.http.port", "-1"));
        assertEquals("lango.http.port has the invalid value \"-1\"; accepted: an integer from 1 to 65535", message);
    }

    @Test
    void nonNumericTokenBudgetIsRefused() {
        assertTrue(error(Map.of("lango.agent.token-budget", "lots")).startsWith("lango.agent.token-budget has the invalid value \"lots\""));
    }

    @Test
    void unknownDatabaseKindIsRefused() {
        assertEquals("lango.db.kind has the invalid value \"mysql\"; accepted: h2 or postgresql",
                error(Map.of("lango.db.kind", "mysql")));
    }

    @Test
    void postgresqlNeedsAPostgresqlUrl() {
        assertTrue(error(Map.of("lango.db.kind", "postgresql")).startsWith("lango.db.url is not set"));
        assertTrue(error(Map.of("lango.db.kind", "postgresql", "lango.db.url", "jdbc:h2:mem:x"))
                .contains("jdbc:postgresql:"));
        LangoSettings pg = parse(Map.of("lango.db.kind", "POSTGRESQL", "lango.db.url", "jdbc:postgresql://db/lango"));
        assertEquals(LangoSettings.DbKind.POSTGRESQL, pg.dbKind());
    }

    @Test
    void malformedSessionTtlIsRefused() {
        assertTrue(error(Map.of("lango.session.ttl", "3 days")).startsWith("lango.session.ttl has the invalid value \"3 days\""));
        assertEquals(Duration.ofDays(7), parse(Map.of("lango.session.ttl", "P7D")).sessionTtl());
    }

    @Test
    void dataDirExpandsTildeToHome() {
        assertEquals(Path.of("/home/ann/lango-data"), parse(Map.of("lango.data.dir", "~/lango-data")).dataDir());
    }

    @Test
    void dataDirInsideTheServerDirectoryIsRefused() {
        String message = assertThrows(InvalidConfigurationException.class, () -> SettingsParser.requireOutside(
                Path.of("/opt/wlp/usr/servers/lango/data"), Path.of("/opt/wlp/usr/servers/lango"))).getMessage();
        assertTrue(message.startsWith("lango.data.dir has the invalid value"), message);
        SettingsParser.requireOutside(Path.of("/home/ann/.lango"), Path.of("/opt/wlp/usr/servers/lango"));
    }

    @Test
    void settingsNeverPrintThePassword() {
        LangoSettings pg = parse(Map.of("lango.db.kind", "postgresql",
                "lango.db.url", "jdbc:postgresql://db/lango?password=hunter2", "lango.db.password", "s3cret"));
        assertFalse(pg.toString().contains("s3cret"));
        assertFalse(pg.toString().contains("hunter2"));
    }
}
