package ai.lango.tool;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What replaces references in a call's arguments just before the tool runs (the vault's
 * {@code {{secret:NAME}}}): the model, the approval request and the stored call see the reference,
 * only the tool sees what it stands for — and only where the reference may go.
 */
public interface References {

    /**
     * The references a call carries and where their values would go, for the person who approves it.
     *
     * @param names       the names of the secrets whose values the tool would get
     * @param destination where the call sends what it is given (a host; "*" any), when it reaches the network
     */
    record Use(List<String> names, Optional<String> destination) {

        public static final Use NONE = new Use(List.of(), Optional.empty());

        public boolean any() {
            return !names.isEmpty();
        }
    }

    /** Arguments as they are. */
    References NONE = new References() {
        @Override
        public Use inspect(Tool tool, Map<String, Object> args, Caller caller) {
            return Use.NONE;
        }

        @Override
        public Map<String, Object> resolve(Tool tool, Map<String, Object> args, Caller caller) {
            return args;
        }
    };

    /**
     * What the call's references stand for and where they would go, checked against where each may go
     * before anything is opened; a {@link ToolException} that names the reference and the rule it breaks.
     */
    Use inspect(Tool tool, Map<String, Object> args, Caller caller) throws ToolException;

    /** {@code args} with every reference replaced (checked again), or as they are for a tool that keeps text. */
    Map<String, Object> resolve(Tool tool, Map<String, Object> args, Caller caller) throws ToolException;
}
