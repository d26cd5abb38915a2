package ai.lango.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IdsTest {

    @Test
    void idsAreLettersDigitsAndDotUnderscoreColonAtDashUpTo255() {
        for (String id : new String[] {"a", "chat-1b2c", "me@example.com", "a2a-ctx:1.2_x", "s".repeat(255), "a..b"}) {
            assertTrue(Ids.valid(id), id);
        }
        for (String id : new String[] {"", ".", "..", "../x", "a/b", "a\\b", "a b", "a\u0000b", "é", "s".repeat(256), null}) {
            assertFalse(Ids.valid(id), String.valueOf(id));
        }
    }

    @Test
    void problemsNameTheFieldAndShowNoControlCharacter() {
        assertEquals("sessionId is required", Ids.problem("sessionId", "").orElseThrow());
        String problem = Ids.problem("sessionId", "a\u0000b").orElseThrow();
        assertTrue(problem.startsWith("sessionId \"a\\u0000b\" is not a valid id"), problem);
        assertTrue(Ids.problem("userId", "u".repeat(5000)).orElseThrow().contains("(5000 characters)"));
        assertTrue(Ids.problem("userId", "ok").isEmpty());
    }

    @Test
    void anyIdThatFitsTheColumnCouldHaveBeenStored() {
        assertTrue(Ids.storable("a/b", LangoSettings.DbKind.HSQLDB));
        assertFalse(Ids.storable("s".repeat(256), LangoSettings.DbKind.HSQLDB));
        assertFalse(Ids.storable("", LangoSettings.DbKind.HSQLDB));
        assertTrue(Ids.storable("a\u0000b", LangoSettings.DbKind.HSQLDB), "the embedded database may hold such a key from before the rule (imported with an earlier version's data)");
        assertFalse(Ids.storable("a\u0000b", LangoSettings.DbKind.POSTGRESQL), "PostgreSQL cannot, and the query would fail");
    }
}
