package ai.lango.retrieval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Keyword relevance: Lucene's BM25 over English-analysed text (lower case, stop words out,
 * Porter stems), in memory. Documents carry a group (the collection, or the collection and session)
 * that a search may be limited to. Safe for concurrent use.
 */
public final class KeywordIndex implements AutoCloseable {

    private static final String ID = "id";
    private static final String GROUP = "group";
    private static final String TEXT = "text";
    /** Lucene refuses a query of more clauses than this (IndexSearcher.getMaxClauseCount()). */
    private static final int MAX_TERMS = 1000;

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final IndexWriter writer;
    private final SearcherManager searchers;

    public KeywordIndex() {
        try {
            writer = new IndexWriter(new ByteBuffersDirectory(), new IndexWriterConfig(analyzer));
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adds the text under {@code id}, replacing what was there; visible to searches after {@link #refresh()}. */
    public void put(String id, String group, String text) {
        org.apache.lucene.document.Document doc = new org.apache.lucene.document.Document();
        doc.add(new StringField(ID, id, Field.Store.YES));
        doc.add(new StringField(GROUP, group, Field.Store.NO));
        doc.add(new TextField(TEXT, text, Field.Store.NO));
        try {
            writer.updateDocument(new Term(ID, id), doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void remove(String id) {
        try {
            writer.deleteDocuments(new Term(ID, id));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes what was put and removed visible to searches. */
    public void refresh() {
        try {
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ids of the at most {@code n} most relevant documents of the groups, best first; none when the text has no term. */
    public List<String> search(String text, Set<String> groups, int n) {
        Set<String> terms = terms(text);
        if (terms.isEmpty() || groups.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder words = new BooleanQuery.Builder();
        terms.forEach(t -> words.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD));
        BooleanQuery.Builder within = new BooleanQuery.Builder();
        groups.forEach(g -> within.add(new TermQuery(new Term(GROUP, g)), BooleanClause.Occur.SHOULD));
        Query query = new BooleanQuery.Builder()
                .add(words.build(), BooleanClause.Occur.MUST)
                .add(within.build(), BooleanClause.Occur.FILTER)
                .build();
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                List<String> ids = new ArrayList<>();
                for (ScoreDoc hit : searcher.search(query, n).scoreDocs) {
                    ids.add(searcher.storedFields().document(hit.doc).get(ID));
                }
                return ids;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text's distinct analysed terms, at most as many as one query may hold. */
    private Set<String> terms(String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream tokens = analyzer.tokenStream(TEXT, text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken() && terms.size() < MAX_TERMS) {
                terms.add(term.toString());
            }
            tokens.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return terms;
    }

    @Override
    public void close() {
        try {
            searchers.close();
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
