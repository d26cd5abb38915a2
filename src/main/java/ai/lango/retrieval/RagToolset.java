package ai.lango.retrieval;

import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * rag_retrieve: hybrid search over knowledge, learnings and the current session's observations and
 * reflections. There whenever retrieval is (always: the default embedding model runs in the server).
 */
@ApplicationScoped
public class RagToolset implements Toolset {

    @Inject
    Retrieval retrieval;

    @Override
    public String name() {
        return "rag";
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public int order() {
        return 60;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new RetrieveTool(retrieval));
    }
}
