package ai.lango.tool;

import ai.lango.config.LangoSettings;
import ai.lango.turn.Names;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A workspace tool that acts in its caller's folder ({@link LangoSettings.ToolSettings#workspaceOf}):
 * one name and schema for every user, and each call made anew for the caller's workspace, so that
 * nothing one user's call resolves can reach another user's files.
 */
final class InCallersWorkspace implements Tool {

    private final Function<Workspace, Tool> inWorkspace;
    private final LangoSettings.ToolSettings settings;
    /** The tool in the workspace itself: its name, description, schema and timeout are everyone's. */
    private final Tool shape;

    InCallersWorkspace(Function<Workspace, Tool> inWorkspace, LangoSettings.ToolSettings settings) {
        this.inWorkspace = inWorkspace;
        this.settings = settings;
        this.shape = inWorkspace.apply(new Workspace(settings.workspace()));
    }

    @Override
    public String name() {
        return shape.name();
    }

    @Override
    public String description() {
        return shape.description();
    }

    @Override
    public Safety safety() {
        return shape.safety();
    }

    @Override
    public Map<String, Object> parameters() {
        return shape.parameters();
    }

    @Override
    public Optional<Duration> timeout() {
        return shape.timeout();
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args) throws Exception {
        return call(args, null);
    }

    @Override
    public Map<String, Object> call(Map<String, Object> args, Caller caller) throws Exception {
        Workspace workspace = new Workspace(settings.workspaceOf(caller == null ? null : caller.userId(), Names.DEFAULT_USER));
        return inWorkspace.apply(workspace).call(args, caller);
    }
}
