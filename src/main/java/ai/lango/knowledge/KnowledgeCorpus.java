package ai.lango.knowledge;

import ai.lango.retrieval.Corpus;
import ai.lango.retrieval.Document;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** Knowledge as retrieval sees it: every entry's content, under its key, in its owner's scope. */
@ApplicationScoped
public class KnowledgeCorpus implements Corpus {

    @Inject
    KnowledgeStore store;

    @Override
    public String collection() {
        return Document.KNOWLEDGE;
    }

    @Override
    public List<Document> documents() {
        return store.all(null, 0, Integer.MAX_VALUE).stream().map(KnowledgeStore::document).toList();
    }
}
