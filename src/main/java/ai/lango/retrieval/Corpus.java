package ai.lango.retrieval;

import java.util.List;

/**
 * The rows of one collection as they are now: the plug-in point through which retrieval puts its
 * vectors right at start (embeds what is missing or was embedded from other text or by another
 * model, deletes vectors whose row is gone). The store that owns the rows implements it.
 */
public interface Corpus {

    /** One of {@link Document#COLLECTIONS}. */
    String collection();

    /** Every row of the collection, as documents. */
    List<Document> documents();
}
