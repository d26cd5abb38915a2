package ai.lango.tool;

import ai.lango.config.LangoSettings;
import ai.lango.turn.Names;
import java.util.Map;
import java.util.function.Function;

/**
 * A tool that acts in its caller's workspace ({@link LangoSettings.ToolSettings#workspaceOf}): one
 * declaration for every user, and each call in the caller's own folder, so that nothing one
 * user's call resolves can reach another user's files.
 */
public abstract class WorkspaceTool extends DeclaredTool {

    private final Function<Caller, Workspace> workspaces;

    protected WorkspaceTool(ToolFamily family, String name, Safety safety, String description, Map<String, Object> parameters,
                            Function<Caller, Workspace> workspaces) {
        super(family, name, safety, description, parameters);
        this.workspaces = workspaces;
    }

    /** Each caller's workspace, as the settings place it. */
    public static Function<Caller, Workspace> perCaller(LangoSettings.ToolSettings settings) {
        return caller -> new Workspace(settings.workspaceOf(caller == null ? null : caller.userId(),
                caller == null ? null : caller.sessionKey(), Names.DEFAULT_USER));
    }

    /** One workspace, whoever calls. */
    public static Function<Caller, Workspace> fixed(Workspace workspace) {
        return caller -> workspace;
    }

    @Override
    public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
        return callIn(workspaceOf(caller), args);
    }

    /** The workspace a call of {@code caller} acts in. */
    protected final Workspace workspaceOf(Caller caller) {
        return workspaces.apply(caller);
    }

    /** The call, in the caller's workspace. */
    protected abstract Map<String, Object> callIn(Workspace workspace, Map<String, Object> args) throws Exception;
}
