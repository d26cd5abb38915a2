package ai.lango.adk.tools;

import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArtifacts;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.ToolRunner;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.ToolContext;
import com.google.genai.types.FunctionDeclaration;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Optional;

/**
 * A Lango tool as an ADK tool: its JSON Schema declared as is, every call past the {@link ApprovalGate}
 * and through the {@link ToolRunner}. A result that refers to an artifact the tool saved ({@link
 * ToolArtifacts}) is recorded in the function response's artifactDelta, as ADK's own tools record
 * theirs, so ADK's clients (the dev UI) know to fetch it.
 */
final class ToolAdapter extends BaseTool {

    private final Tool tool;
    private final ToolRunner runner;
    private final ApprovalGate gate;

    ToolAdapter(Tool tool, ToolRunner runner, ApprovalGate gate) {
        super(tool.name(), tool.description());
        this.tool = tool;
        this.runner = runner;
        this.gate = gate;
    }

    ToolFamily family() {
        return tool.family();
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
        return Single.fromCallable(() -> {
            Map<String, Object> result = gate.before(tool, args, context).orElseGet(() -> runner.run(tool, args,
                    context == null ? null : new Caller(context.userId(), context.sessionId())));
            if (context != null) {
                ToolArtifacts.of(result).ifPresent(saved -> context.eventActions().artifactDelta().put(saved.getKey(), saved.getValue()));
            }
            return result;
        });
    }
}
