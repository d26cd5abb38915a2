package ai.lango.tool;

/**
 * A family of tools: what its tools let an agent do, in words (never a tool name, which a model
 * could take for an agent's name), and which sub-agent holds them in multi-agent mode. Every tool
 * declares its family ({@link DeclaredTool}), so a new tool cannot land with a sub-agent by
 * accident; a family made at run time (an MCP server's) is one more instance.
 *
 * @param capability what the family's tools do, as descriptions and instructions say it
 * @param holder     the sub-agent that gets the family's tools
 */
public record ToolFamily(String capability, Holder holder) {

    /** The sub-agents of multi-agent mode that hold tools (the planner holds none). */
    public enum Holder { EXECUTOR, RESEARCHER, MEMORY_MANAGER }

    public static final ToolFamily EXEC = new ToolFamily("command execution", Holder.EXECUTOR);
    public static final ToolFamily FILES = new ToolFamily("file operations", Holder.EXECUTOR);
    public static final ToolFamily BROWSER = new ToolFamily("web browsing", Holder.EXECUTOR);
    public static final ToolFamily CRYPTO = new ToolFamily("cryptography", Holder.EXECUTOR);
    public static final ToolFamily SKILLS = new ToolFamily("skill management", Holder.EXECUTOR);
    public static final ToolFamily PAYMENT = new ToolFamily("blockchain payments (USDC on Base)", Holder.EXECUTOR);
    public static final ToolFamily SECRETS = new ToolFamily("secret management", Holder.EXECUTOR);
    public static final ToolFamily SEARCH = new ToolFamily("information search", Holder.RESEARCHER);
    public static final ToolFamily RAG = new ToolFamily("knowledge retrieval (RAG)", Holder.RESEARCHER);
    public static final ToolFamily GRAPH = new ToolFamily("knowledge graph traversal", Holder.RESEARCHER);
    public static final ToolFamily KNOWLEDGE = new ToolFamily("knowledge persistence", Holder.RESEARCHER);
    public static final ToolFamily LEARNING = new ToolFamily("learning persistence", Holder.RESEARCHER);
    public static final ToolFamily LEARNING_STATS = new ToolFamily("learning statistics", Holder.RESEARCHER);
    public static final ToolFamily MEMORY = new ToolFamily("memory storage and recall", Holder.MEMORY_MANAGER);
    /** The tools of the MCP servers Lango is given: they act on the world, so the executor holds them. */
    public static final ToolFamily MCP = new ToolFamily("tools of connected MCP servers", Holder.EXECUTOR);
}
