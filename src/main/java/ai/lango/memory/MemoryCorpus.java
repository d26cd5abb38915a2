package ai.lango.memory;

import ai.lango.retrieval.Corpus;
import ai.lango.retrieval.Document;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** Observations and reflections as retrieval sees them: one corpus each, every session's. */
public final class MemoryCorpus {

    private MemoryCorpus() {
    }

    @ApplicationScoped
    public static class Observations implements Corpus {
        @Inject
        MemoryStore store;

        @Override
        public String collection() {
            return Document.OBSERVATION;
        }

        @Override
        public List<Document> documents() {
            return store.documents(Document.OBSERVATION);
        }
    }

    @ApplicationScoped
    public static class Reflections implements Corpus {
        @Inject
        MemoryStore store;

        @Override
        public String collection() {
            return Document.REFLECTION;
        }

        @Override
        public List<Document> documents() {
            return store.documents(Document.REFLECTION);
        }
    }
}
