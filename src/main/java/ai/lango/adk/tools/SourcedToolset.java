package ai.lango.adk.tools;

import ai.lango.tool.Tool;
import ai.lango.tool.ToolSource;
import com.google.adk.agents.ReadonlyContext;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.BaseToolset;
import io.reactivex.rxjava3.core.Flowable;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * Tools made at run time ({@link ToolSource}, an MCP server's) as an ADK toolset, which ADK asks at
 * every model call: the tools offered to that turn's user now, each adapted once (so its schema is
 * converted once) and called through the same gate and runner as every other tool.
 */
final class SourcedToolset implements BaseToolset {

    private final ToolSource source;
    private final Function<Tool, ToolAdapter> adapt;
    private final Map<Tool, ToolAdapter> adapted = Collections.synchronizedMap(new WeakHashMap<>());

    SourcedToolset(ToolSource source, Function<Tool, ToolAdapter> adapt) {
        this.source = source;
        this.adapt = adapt;
    }

    @Override
    public Flowable<BaseTool> getTools(ReadonlyContext context) {
        String userId = context == null ? null : context.userId();
        List<BaseTool> tools = source.tools(userId).stream().<BaseTool>map(tool -> adapted.computeIfAbsent(tool, adapt)).toList();
        return Flowable.fromIterable(tools);
    }

    @Override
    public void close() {
        adapted.clear();
    }
}
