package ai.lango.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SessionRefTest {

    @Test
    void theSameIdOfTwoUsersHasTwoScopes() {
        assertNotEquals(SessionRef.of("ann", "default").scope(), SessionRef.of("bob", "default").scope());
        assertEquals(SessionRef.of("ann", "default").scope(), SessionRef.of("ann", "default").scope());
    }

    @Test
    void theScopeTellsWhereOneIdEndsAndTheNextBegins() {
        // Concatenated, both would read "a:b:c"; the lengths keep them apart.
        assertNotEquals(new SessionRef("x", "a:b", "c").scope(), new SessionRef("x", "a", "b:c").scope());
        assertNotEquals(new SessionRef("lango", "u", "s").scope(), new SessionRef("other", "u", "s").scope());
    }

    @Test
    void theScopeFitsAColumnWhateverTheIdsLength() {
        String scope = SessionRef.of("u".repeat(255), "s".repeat(255)).scope();
        assertEquals(32, scope.length());
        assertTrue(scope.matches("[0-9a-f]{32}"), scope);
    }

    @Test
    void logsNameTheSessionAndItsUser() {
        assertEquals("session \"s1\" of user \"ann\"", SessionRef.of("ann", "s1").toString());
    }
}
