package ai.lango.learning;

import ai.lango.retrieval.Corpus;
import ai.lango.retrieval.Document;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** Learnings as retrieval sees them: trigger and fix, under the learning's id. */
@ApplicationScoped
public class LearningCorpus implements Corpus {

    @Inject
    LearningStore store;

    @Override
    public String collection() {
        return Document.LEARNING;
    }

    @Override
    public List<Document> documents() {
        return store.all(null, 0, Integer.MAX_VALUE).stream().map(LearningStore::document).toList();
    }
}
