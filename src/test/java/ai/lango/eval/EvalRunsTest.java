package ai.lango.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.lango.config.TestSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The eval runs a server lets go on at once: lango.eval.max-runs in all, one at a time for a user who does not administer. */
class EvalRunsTest {

    @TempDir
    Path dir;

    private EvalRuns runs(int max) {
        EvalRuns runs = new EvalRuns();
        runs.settings = TestSettings.of(dir, "lango.eval.max-runs", String.valueOf(max));
        return runs;
    }

    @Test
    void oneUserCannotHoldEverySlot() {
        EvalRuns runs = runs(2);
        EvalRun first = runs.start("ann", false, "s");
        EvalLibrary.Refused second = assertThrows(EvalLibrary.Refused.class, () -> runs.start("ann", false, "s"),
                "ann holds one slot; the other is left for other users");
        assertEquals(429, second.status());
        EvalRun bobs = runs.start("bob", false, "s");
        assertEquals(429, assertThrows(EvalLibrary.Refused.class, () -> runs.start("cid", false, "s")).status(), "the server's limit");
        runs.finished(first);
        runs.start("ann", false, "s");
        runs.finished(bobs);
    }

    @Test
    void anAdministratorIsBoundByTheServersLimitOnly() {
        EvalRuns runs = runs(2);
        runs.start("user", true, "s");
        runs.start("user", true, "t");
        assertEquals(429, assertThrows(EvalLibrary.Refused.class, () -> runs.start("user", true, "u")).status());
    }
}
