package ai.lango.orchestration;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a set of tools lets an agent do, in words rather than tool names, so descriptions and the
 * orchestrator's instruction never carry a raw tool name a model could mistake for an agent.
 */
public final class Capabilities {

    /** Prefix → capability; the first matching prefix wins. */
    static final Map<String, String> CAPABILITY_MAP = orderedMap(
            "exec", "command execution",
            "fs_", "file operations",
            "browser_", "web browsing",
            "crypto_", "cryptography",
            "skill_", "skill management",
            "payment_", "blockchain payments (USDC on Base)",
            "secrets_", "secret management",
            "search_", "information search",
            "rag_", "knowledge retrieval (RAG)",
            "graph_", "knowledge graph traversal",
            "save_knowledge", "knowledge persistence",
            "save_learning", "learning persistence",
            "memory_", "memory storage and recall",
            "observe_", "event observation",
            "reflect_", "reflection and summarization");

    static final String GENERAL = "general actions";

    private Capabilities() {
    }

    public static String of(String tool) {
        return CAPABILITY_MAP.entrySet().stream().filter(e -> tool.startsWith(e.getKey()))
                .map(Map.Entry::getValue).findFirst().orElse(GENERAL);
    }

    /** The capabilities of the tools, each once, in first-seen order, joined with ", ". */
    public static String describe(List<String> tools) {
        Set<String> capabilities = new LinkedHashSet<>();
        tools.forEach(tool -> capabilities.add(of(tool)));
        return String.join(", ", capabilities);
    }

    private static Map<String, String> orderedMap(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }
}
