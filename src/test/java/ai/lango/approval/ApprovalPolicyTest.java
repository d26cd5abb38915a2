package ai.lango.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.config.LangoSettings;
import ai.lango.config.LangoSettings.Approval.Policy;
import ai.lango.config.TestSettings;
import ai.lango.tool.Safety;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The policy matrix: which calls wait for a person, by policy, the tool's safety, and the sensitive and exempt lists. */
class ApprovalPolicyTest {

    private static LangoSettings.Approval settings(Policy policy) {
        return TestSettings.of(Path.of("/tmp/lango"), "lango.security.approval.policy", policy.name().toLowerCase(Locale.ROOT),
                "lango.security.approval.sensitive-tools", "fs_write", "lango.security.approval.exempt-tools", "exec_exempt").approval();
    }

    @ParameterizedTest(name = "{0} {1} {2}: asks {3}")
    @CsvSource({
        // policy,    tool,          safety,    asks
        "DANGEROUS,  fs_read,       SAFE,      false",
        "DANGEROUS,  fs_mkdir,      MODERATE,  false",
        "DANGEROUS,  exec,          DANGEROUS, true",
        "DANGEROUS,  fs_write,      MODERATE,  true",   // sensitive: asks whatever its safety
        "DANGEROUS,  exec_exempt,   DANGEROUS, false",  // exempt: never asks
        "ALL,        fs_read,       SAFE,      true",
        "ALL,        exec_exempt,   DANGEROUS, false",
        "CONFIGURED, exec,          DANGEROUS, false",  // only the sensitive tools ask
        "CONFIGURED, fs_write,      MODERATE,  true",
        "NONE,       exec,          DANGEROUS, false",
        "NONE,       fs_write,      MODERATE,  false",
    })
    void theMatrix(Policy policy, String tool, Safety safety, boolean asks) {
        assertEquals(asks, ApprovalPolicy.asks(settings(policy), tool, safety));
    }
}
