package ai.lango.retrieval;

/** One search result: the row, its text, and its fused relevance (higher is better). */
public record Hit(String collection, String sourceId, String content, double score) {

    /** How the graph names this row: "knowledge:deploy-branch". */
    public String node() {
        return collection + ":" + sourceId;
    }
}
