package ai.lango.graph;

import java.util.List;

/** The predicates triples may have: those the model may extract, and those memory and containment add. */
public final class Predicates {

    public static final String RELATED_TO = "related_to";
    public static final String CAUSED_BY = "caused_by";
    public static final String RESOLVED_BY = "resolved_by";
    public static final String FOLLOWS = "follows";
    public static final String SIMILAR_TO = "similar_to";
    public static final String CONTAINS = "contains";
    public static final String IN_SESSION = "in_session";
    public static final String REFLECTS_ON = "reflects_on";
    public static final String LEARNED_FROM = "learned_from";

    /** What the extraction may answer with. */
    public static final List<String> EXTRACTED = List.of(RELATED_TO, CAUSED_BY, RESOLVED_BY, FOLLOWS, SIMILAR_TO, CONTAINS);
    /** Every predicate. */
    public static final List<String> ALL = List.of(RELATED_TO, CAUSED_BY, RESOLVED_BY, FOLLOWS, SIMILAR_TO, CONTAINS,
            IN_SESSION, REFLECTS_ON, LEARNED_FROM);
    /** What Graph RAG follows from a hit: relations of meaning, not bookkeeping. */
    public static final List<String> SEMANTIC = List.of(RELATED_TO, RESOLVED_BY, CAUSED_BY, SIMILAR_TO);

    private Predicates() {
    }
}
