package ai.lango.retrieval;

/**
 * One search result: the row, whose it is (its {@link Document#scope}; null when shared by every
 * user), its text, and its fused relevance (higher is better).
 */
public record Hit(String collection, String sourceId, String scope, String content, double score) {

    /** How the graph names this row: "knowledge:deploy-branch". */
    public String node() {
        return collection + ":" + sourceId;
    }

    /** What tells this row from every other, also from another owner's of the same name (see {@link Document#key}). */
    public String key() {
        return Document.key(collection, sourceId, scope);
    }

    /** Whether every user may find it (an administrator's, or promoted by one). */
    public boolean shared() {
        return scope == null;
    }
}
