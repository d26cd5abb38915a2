package ai.lango.adk.tools;

import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolRunner;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.ToolContext;
import com.google.genai.types.FunctionDeclaration;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Optional;

/** A Lango tool as an ADK tool: its JSON Schema declared as is, every call through the {@link ToolRunner}. */
final class ToolAdapter extends BaseTool {

    private final Tool tool;
    private final ToolRunner runner;

    ToolAdapter(Tool tool, ToolRunner runner) {
        super(tool.name(), tool.description());
        this.tool = tool;
        this.runner = runner;
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
        return Optional.of(FunctionDeclaration.builder()
                .name(tool.name())
                .description(tool.description())
                .parametersJsonSchema(tool.parameters())
                .build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
        return Single.fromCallable(() -> runner.run(tool, args,
                context == null ? null : new Caller(context.userId(), context.sessionId())));
    }
}
