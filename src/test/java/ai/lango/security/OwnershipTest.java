package ai.lango.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.config.TestSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A user's model saves for that user; only those who administer save what every user shares. */
class OwnershipTest {

    private static Ownership ownership(boolean authenticated, Set<String> admins) {
        Ownership ownership = new Ownership();
        ownership.access = TestSettings.of(Path.of("/tmp/lango"), "lango.auth.token", authenticated ? "operator-token" : null).access();
        ownership.users = new UserTokenStore() {
            @Override
            public boolean isAdmin(String userId) {
                return admins.contains(userId);
            }
        };
        return ownership;
    }

    @Test
    void withAuthenticationAUsersTurnsSaveForThatUserAndAdministratorsForEveryone() {
        Ownership ownership = ownership(true, Set.of("root"));
        assertEquals(Ownership.SHARED, ownership.ownerOf(Identity.OPERATOR_USER));
        assertEquals(Ownership.SHARED, ownership.ownerOf(Identity.OPERATOR_A2A_USER));
        assertEquals(Ownership.SHARED, ownership.ownerOf("root"));
        assertEquals("bob", ownership.ownerOf("bob"), "bob's model cannot plant a learning in carol's prompt");
    }

    @Test
    void withoutAuthenticationEveryCallerIsTheOperatorAndSavesForEveryone() {
        assertEquals(Ownership.SHARED, ownership(false, Set.of()).ownerOf("bob"));
    }

    @Test
    void aTurnReadsWhatIsSharedAndItsUsersOwn() {
        assertEquals(List.of(Ownership.SHARED, "ann"), Ownership.visibleTo("ann"));
        assertEquals(List.of(Ownership.SHARED), Ownership.visibleTo(null));
    }
}
