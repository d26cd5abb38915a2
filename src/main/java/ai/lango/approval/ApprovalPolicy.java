package ai.lango.approval;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Safety;

/** Which calls wait for a person: lango.security.approval.* applied to a tool's name and declared safety. */
public final class ApprovalPolicy {

    private ApprovalPolicy() {
    }

    /** Whether a call of {@code tool}, declared {@code safety}, waits for a person under {@code settings}. */
    public static boolean asks(LangoSettings.Approval settings, String tool, Safety safety) {
        if (settings.exemptTools().contains(tool)) {
            return false;
        }
        return switch (settings.policy()) {
            case NONE -> false;
            case ALL -> true;
            case CONFIGURED -> settings.sensitiveTools().contains(tool);
            case DANGEROUS -> safety == Safety.DANGEROUS || settings.sensitiveTools().contains(tool);
        };
    }
}
