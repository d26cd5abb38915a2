package ai.lango.adk.runner;

import com.google.adk.tools.BaseTool;
import com.google.adk.tools.ToolContext;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.Schema;
import io.reactivex.rxjava3.core.Single;
import java.util.Map;
import java.util.Optional;

/** A tool that answers {"ok": true}, so a model can call it forever. */
public final class NoopTool extends BaseTool {
    public NoopTool() {
        this("noop");
    }

    public NoopTool(String name) {
        super(name, "does nothing");
    }

    @Override
    public Optional<FunctionDeclaration> declaration() {
        return Optional.of(FunctionDeclaration.builder().name(name()).description("does nothing")
                .parameters(Schema.builder().type("OBJECT").properties(Map.of()).build()).build());
    }

    @Override
    public Single<Map<String, Object>> runAsync(Map<String, Object> args, ToolContext context) {
        return Single.just(Map.of("ok", true));
    }
}
