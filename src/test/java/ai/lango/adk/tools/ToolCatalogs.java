package ai.lango.adk.tools;

import ai.lango.config.LangoSettings;
import ai.lango.tool.exec.ExecToolset;
import ai.lango.tool.fs.FileToolset;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The built-in tools as the agent gets them, for tests that build an agent without the container. */
public final class ToolCatalogs {

    private ToolCatalogs() {
    }

    public static ToolCatalog builtin(LangoSettings settings) {
        ExecutorService executor = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "tool");
            thread.setDaemon(true);
            return thread;
        });
        return ToolCatalog.of(ToolCatalog.adapt(List.of(new FileToolset(settings.tools()), new ExecToolset(settings.tools())),
                executor));
    }
}
