package ai.lango.tool;

import java.util.Map;

/**
 * What replaces references in a call's arguments just before the tool runs (the vault's
 * {@code {{secret:NAME}}}): the model, the approval request and the stored call see the reference,
 * only the tool sees what it stands for.
 */
@FunctionalInterface
public interface References {

    /** Arguments as they are. */
    References NONE = (args, caller) -> args;

    /** {@code args} with every reference replaced; a {@link ToolException} for one that names nothing. */
    Map<String, Object> resolve(Map<String, Object> args, Caller caller) throws ToolException;
}
