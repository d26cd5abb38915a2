package ai.lango.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Until knowledge and learnings are kept per user, only those who administer write them. */
class SharedWritersTest {

    private static SharedWriters writers(boolean authenticated, Set<String> admins) {
        SharedWriters writers = new SharedWriters();
        writers.access = new LangoSettings.Access(authenticated ? Optional.of("operator-token") : Optional.empty(), List.of());
        writers.users = new UserTokens() {
            @Override
            public boolean isAdmin(String userId) {
                return admins.contains(userId);
            }
        };
        return writers;
    }

    @Test
    void withAuthenticationOnlyTheOperatorAndAdministratorsWriteWhatEveryoneShares() {
        SharedWriters writers = writers(true, Set.of("root"));
        assertTrue(writers.mayWrite(Identity.OPERATOR_USER));
        assertTrue(writers.mayWrite(Identity.OPERATOR_A2A_USER));
        assertTrue(writers.mayWrite("root"));
        assertFalse(writers.mayWrite("bob"), "bob's model cannot plant a learning in carol's prompt");
    }

    @Test
    void withoutAuthenticationEveryCallerIsTheOperator() {
        assertTrue(writers(false, Set.of()).mayWrite("bob"));
    }
}
