package ai.lango.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void passwordParameterOfAJdbcUrlIsMasked() {
        assertEquals("jdbc:postgresql://db:5432/lango?user=ann&password=****&ssl=true",
                Redaction.jdbcUrl("jdbc:postgresql://db:5432/lango?user=ann&password=secret&ssl=true"));
    }

    @Test
    void credentialsBeforeTheHostAreMasked() {
        assertEquals("jdbc:postgresql://ann:****@db/lango", Redaction.jdbcUrl("jdbc:postgresql://ann:secret@db/lango"));
    }

    @Test
    void urlWithoutSecretsIsUnchanged() {
        assertEquals("jdbc:h2:file:/data/db/lango", Redaction.jdbcUrl("jdbc:h2:file:/data/db/lango"));
    }
}
