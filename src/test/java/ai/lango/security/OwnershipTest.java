package ai.lango.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user's model saves for that user; only those who administer save what every user shares. */
class OwnershipTest {

    private static Ownership ownership(boolean authenticated) {
        Ownership ownership = new Ownership();
        ownership.access = TestSettings.of(Path.of("/tmp/lango"), "lango.auth.token", authenticated ? "operator-token" : null).access();
        return ownership;
    }

    @Test
    void withAuthenticationAUsersTurnsSaveForThatUserAndAdministratorsForEveryone() {
        Ownership ownership = ownership(true);
        assertEquals(Ownership.SHARED, ownership.ownerOf(Identity.OPERATOR_USER, Identity.OPERATOR.administersAs(Identity.OPERATOR_USER)));
        assertEquals(Ownership.SHARED, ownership.ownerOf(Identity.OPERATOR_A2A_USER,
                Identity.OPERATOR.administersAs(Identity.OPERATOR_A2A_USER)));
        assertEquals(Ownership.SHARED, ownership.ownerOf("root", Identity.user("root", true).administersAs("root")));
        assertEquals("bob", ownership.ownerOf("bob", Identity.user("bob", false).administersAs("bob")),
                "bob's model cannot plant a learning in carol's prompt");
    }

    @Test
    void administratorRightsComeFromTheCredentialNeverFromTheName() {
        Ownership ownership = ownership(true);
        // A user named like an administrator, whose credential does not administer (a JWT with that upn).
        assertEquals("root", ownership.ownerOf("root", Identity.user("root", false).administersAs("root")));
        // An administrator acting in bob's session acts as bob.
        assertEquals("bob", ownership.ownerOf("bob", Identity.user("root", true).administersAs("bob")));
    }

    @Test
    void withoutAuthenticationEveryCallerIsTheOperatorAndSavesForEveryone() {
        assertEquals(Ownership.SHARED, ownership(false).ownerOf("bob", false));
    }

    @Test
    void aTurnReadsWhatIsSharedAndItsUsersOwn() {
        assertEquals(List.of(Ownership.SHARED, "ann"), Ownership.visibleTo("ann"));
        assertEquals(List.of(Ownership.SHARED), Ownership.visibleTo(null));
    }

    @Test
    void aRequestForApprovalIsAnsweredByItsOwnUserOnly() {
        assertTrue(Identity.user("ann", false).answersFor("ann", true));
        assertFalse(Identity.user("root", true).answersFor("ann", true), "an administrator does not decide ann's calls");
        assertTrue(Identity.OPERATOR.answersFor(Identity.OPERATOR_USER, true), "the operator its own users'");
        assertFalse(Identity.OPERATOR.answersFor("ann", true));
        assertTrue(Identity.OPERATOR.answersFor("me", false), "without authentication every caller is the operator");
    }
}
