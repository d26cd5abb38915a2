package ai.lango.adk.tools;

import ai.lango.tool.Caller;
import ai.lango.tool.References;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolArtifacts;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.ToolRunner;
import ai.lango.turn.TurnContext;
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
            // Who calls is the run's turn, as it started it: never looked up by session (a continuation after an approval
            // may run on another thread while the turn that asked is still ending).
            Caller caller = context == null ? null : new Caller(TurnContexts.of(context)
                    .orElseGet(() -> TurnContext.detached(context.userId(), context.sessionId(), false)), false);
            References.Use use;
            try {
                use = runner.inspect(tool, args, caller);
            } catch (ToolException refused) {
                return Map.<String, Object>of("error", refused.getMessage());
            }
            ApprovalGate.Verdict verdict = gate.before(tool, args, context, caller, use);
            if (!verdict.runs()) {
                return verdict.instead();
            }
            Map<String, Object> result = runner.run(tool, args, verdict.approvedByPerson() ? caller.asApproved() : caller);
            if (context != null) {
                ToolArtifacts.of(result).ifPresent(saved -> context.eventActions().artifactDelta().put(saved.getKey(), saved.getValue()));
            }
            return result;
        });
    }
}
