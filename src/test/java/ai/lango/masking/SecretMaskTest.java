package ai.lango.masking;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SecretMaskTest {

    private static final String OPERATOR_TOKEN = "operator-token-0123456789";
    private static final String ANNS = "ann-secret-value-1";
    private static final String BOBS = "bob-secret-value-2";
    private static final String SHARED_FOR_ANN = "shared-for-ann-value-3";
    private static final String SHARED = "shared-admins-value-4";

    private static void known() {
        SecretMask.configured(Map.of("lango.auth.token", OPERATOR_TOKEN));
        SecretMask.stored(Map.of(ANNS, new SecretMask.Stored("ANN", "ann", false, Set.of()),
                BOBS, new SecretMask.Stored("BOB", "bob", false, Set.of()),
                SHARED_FOR_ANN, new SecretMask.Stored("TEAM", "", true, Set.of("ann")),
                SHARED, new SecretMask.Stored("ADMINS", "", true, Set.of())));
    }

    @AfterEach
    void forget() {
        SecretMask.configured(Map.of());
        SecretMask.stored(Map.of());
    }

    private static String all() {
        return String.join(" ", OPERATOR_TOKEN, ANNS, BOBS, SHARED_FOR_ANN, SHARED);
    }

    @Test
    void aUserSeesTheNamesOfTheSecretsTheyMayUseAndOneUnnamedPlaceholderForEveryOther() {
        known();
        assertEquals("[SECRET] [SECRET:ANN] [SECRET] [SECRET:TEAM] [SECRET]", SecretMask.mask(all(), new Audience("ann", false)));
        assertEquals("[SECRET] [SECRET] [SECRET:BOB] [SECRET] [SECRET]", SecretMask.mask(all(), new Audience("bob", false)));
    }

    @Test
    void anAdministratorSeesTheConfiguredAndSharedSecretsNamedButNotAUsersOwn() {
        known();
        assertEquals("[SECRET:lango.auth.token] [SECRET] [SECRET] [SECRET:TEAM] [SECRET:ADMINS]",
                SecretMask.mask(all(), new Audience("user", true)));
    }

    @Test
    void nobodyInParticularSeesEverySecretUnnamedAndTheOperatorsLogsNameThemAll() {
        known();
        assertEquals("[SECRET] [SECRET] [SECRET] [SECRET] [SECRET]", SecretMask.mask(all(), Audience.NOBODY));
        assertEquals("[SECRET:lango.auth.token] [SECRET:ANN] [SECRET:BOB] [SECRET:TEAM] [SECRET:ADMINS]", SecretMask.mask(all()));
    }

    @Test
    void aUsersStreamIsMaskedForThemEvenSplitAcrossChunks() {
        known();
        StreamMasker stream = SecretMask.stream(new Audience("ann", false));
        StringBuilder out = new StringBuilder(stream.next("guess " + BOBS.substring(0, 9)));
        out.append(stream.next(BOBS.substring(9) + " and mine " + ANNS.substring(0, 3)));
        out.append(stream.next(ANNS.substring(3) + " done")).append(stream.finish());
        assertEquals("guess [SECRET] and mine [SECRET:ANN] done", out.toString());
    }
}
