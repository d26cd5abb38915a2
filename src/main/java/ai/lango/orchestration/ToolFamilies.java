package ai.lango.orchestration;

import java.util.List;
import java.util.Optional;

/**
 * Tool families by name prefix, in one table: what each lets an agent do (in words, never a tool
 * name) and which sub-agent gets it. The first matching prefix wins; a tool of no family is a
 * "general action" for the executor.
 */
final class ToolFamilies {

    /** One family: tools whose name starts with {@code prefix}. */
    record Family(String prefix, String capability, String role) {
    }

    static final List<Family> FAMILIES = List.of(
            new Family("exec", "command execution", ToolPartition.EXECUTOR),
            new Family("fs_", "file operations", ToolPartition.EXECUTOR),
            new Family("browser_", "web browsing", ToolPartition.EXECUTOR),
            new Family("crypto_", "cryptography", ToolPartition.EXECUTOR),
            new Family("skill_", "skill management", ToolPartition.EXECUTOR),
            new Family("list_skills", "skill management", ToolPartition.EXECUTOR),
            new Family("load_skill", "skill management", ToolPartition.EXECUTOR),
            new Family("create_skill", "skill management", ToolPartition.EXECUTOR),
            new Family("import_skill", "skill management", ToolPartition.EXECUTOR),
            new Family("payment_", "blockchain payments (USDC on Base)", ToolPartition.EXECUTOR),
            new Family("secrets_", "secret management", ToolPartition.EXECUTOR),
            new Family("search_", "information search", ToolPartition.RESEARCHER),
            new Family("rag_", "knowledge retrieval (RAG)", ToolPartition.RESEARCHER),
            new Family("graph_", "knowledge graph traversal", ToolPartition.RESEARCHER),
            new Family("save_knowledge", "knowledge persistence", ToolPartition.RESEARCHER),
            new Family("save_learning", "learning persistence", ToolPartition.RESEARCHER),
            new Family("learning_", "learning statistics", ToolPartition.RESEARCHER),
            new Family("memory_", "memory storage and recall", ToolPartition.MEMORY_MANAGER),
            new Family("loadMemory", "memory storage and recall", ToolPartition.MEMORY_MANAGER),
            new Family("observe_", "event observation", ToolPartition.MEMORY_MANAGER),
            new Family("reflect_", "reflection and summarization", ToolPartition.MEMORY_MANAGER));

    static final String GENERAL = "general actions";

    private ToolFamilies() {
    }

    static Optional<Family> of(String tool) {
        return FAMILIES.stream().filter(f -> tool.startsWith(f.prefix())).findFirst();
    }
}
