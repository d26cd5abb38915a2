package ai.lango.adk;

import com.google.adk.tools.BaseTool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The tools the agent is given, each adapted to ADK once. */
@ApplicationScoped
public class ToolCatalog {

    public List<BaseTool> adkTools() {
        return List.of();
    }
}
