package ai.lango.graph;

import ai.lango.config.LangoSettings;
import ai.lango.prompt.BudgetedSection;
import ai.lango.prompt.ContextSource;
import ai.lango.prompt.PromptContext;
import ai.lango.prompt.StoredText;
import ai.lango.retrieval.Hit;
import ai.lango.retrieval.Retrieval;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ## Graph-Expanded Context}: what retrieval relates to the user's message, widened by the
 * graph. From each hit's node a walk of depth 2 along relations of meaning (related_to,
 * resolved_by, caused_by, similar_to) reaches other nodes; at most 10 of them, each on a line
 * saying how it was reached: {@code - **node** (via predicate from node)}.
 */
@ApplicationScoped
public class GraphRagContext implements ContextSource {

    static final String TITLE = "## Graph-Expanded Context";
    static final int HITS = 5;
    static final int DEPTH = 2;
    static final int MAX_NODES = 10;

    @Inject
    LangoSettings.Retrieval settings;

    @Inject
    LangoSettings.Knowledge knowledge;

    @Inject
    Retrieval retrieval;

    @Inject
    GraphStore store;

    @Override
    public String name() {
        return "graph-rag";
    }

    @Override
    public int order() {
        return GRAPH;
    }

    @Override
    public Optional<String> section(PromptContext context) {
        if (!settings.graphEnabled() || context.userMessage() == null || context.userMessage().isBlank()) {
            return Optional.empty();
        }
        List<String> hits = retrieval.related(context.userMessage(), HITS, List.of(), context.session()).stream()
                .map(Hit::node).toList();
        Set<String> scopes = GraphStore.visibleTo(context.session());
        List<StoredText> facts = expand(hits, start -> store.traverse(start, DEPTH, Predicates.SEMANTIC, MAX_NODES + 1, scopes).triples());
        String section = BudgetedSection.render(TITLE, facts, MAX_NODES, knowledge.contextBudget(), context);
        return section.isEmpty() ? Optional.empty() : Optional.of(section);
    }

    /** The nodes the walks from the hits reach, each once, none of the hits, at most {@link #MAX_NODES}. */
    static List<StoredText> expand(List<String> hits, java.util.function.Function<String, List<Triple>> walk) {
        Set<String> known = new HashSet<>(hits);
        List<StoredText> lines = new ArrayList<>();
        for (String hit : hits) {
            Set<String> reached = new HashSet<>(Set.of(hit));
            for (Triple t : walk.apply(hit)) {
                String from;
                String to;
                if (reached.contains(t.subject()) && !reached.contains(t.object())) {
                    from = t.subject();
                    to = t.object();
                } else if (reached.contains(t.object()) && !reached.contains(t.subject())) {
                    from = t.object();
                    to = t.subject();
                } else {
                    continue;
                }
                reached.add(to);
                if (known.add(to)) {
                    lines.add(new StoredText(to, "knowledge graph node, reached via " + t.predicate() + " from " + from, to));
                    if (lines.size() == MAX_NODES) {
                        return lines;
                    }
                }
            }
        }
        return lines;
    }
}
