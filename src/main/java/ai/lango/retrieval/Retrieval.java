package ai.lango.retrieval;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.turn.SessionRef;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Embeds documents off the request path and searches them: the vector index of every collection,
 * kept in the database ({@code lango_embeddings}) and, for search, in memory.
 *
 * <p>{@link #index} queues a document and returns at once; one worker thread embeds the queue in
 * batches and stores each vector (replacing the document's previous one). {@link #remove} deletes at
 * once. At start the worker puts the table right against every {@link Corpus}. Each server keeps an
 * in-memory copy; its own writes update it directly, and before a search it compares the table's
 * fingerprint with the copy (at most once a second) to take in what other servers wrote.
 */
@ApplicationScoped
public class Retrieval {

    /**
     * Characters of a text the model is given: its beginning. Remote models refuse long inputs
     * (OpenAI's at 8,191 tokens) and the local one would average many windows; keywords see it all.
     */
    static final int EMBEDDED_CHARS = 8000;
    /** Documents waiting to be embedded, at most; more are embedded at the next start instead. */
    static final int QUEUE_CAPACITY = 4096;
    /** Documents embedded in one call of the model. */
    static final int BATCH = 32;
    /** How stale a server's copy of other servers' vectors may be. */
    static final Duration SYNC_INTERVAL = Duration.ofSeconds(1);
    /** Query vectors kept, and for how long. */
    static final int QUERY_CACHE = 100;
    static final Duration QUERY_TTL = Duration.ofMinutes(5);

    /**
     * The cosine similarity from which a text counts as related to a query without sharing a word
     * with it. With all-MiniLM-L6-v2, questions about a saved fact scored 0.29 to 0.66 against it
     * and unrelated ones -0.06 to 0.14 (LocalEmbedderTest keeps one pair of each on its side).
     */
    public static final double RELATED = 0.3;

    private static final Logger LOG = MaskedLogs.of(Retrieval.class);

    @Inject
    LangoSettings.Retrieval settings;

    @Inject
    LangoSettings.Database database;

    @Inject
    EmbeddingRows rows;

    @Inject
    Instance<Corpus> corpora;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    private final HybridIndex index = new HybridIndex();
    /** What the in-memory copy holds, by {@link Document#key}: the row id, the model, the creation time. */
    private final Map<String, Meta> stored = new ConcurrentHashMap<>();
    private final Map<Long, String> keysById = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<Document> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    /**
     * Documents queued or taken by the worker and not yet stored. The queue alone is empty from the
     * moment the worker takes a batch, before the batch is embedded: {@link #idle} said so then.
     */
    private final AtomicInteger unfinished = new AtomicInteger();
    /** Documents (keys) removed while the worker embedded them: not to be stored. */
    private final Set<String> removedInFlight = ConcurrentHashMap.newKeySet();
    private final Map<String, CachedQuery> queries = new LinkedHashMap<>(16, 0.75f, true);
    private final Object syncLock = new Object();

    private volatile Embedder embedder;
    private volatile String embedderFailure;
    private volatile Thread worker;
    private volatile boolean stopping;
    private volatile long lastSync;
    private volatile boolean reconciled;

    private record Meta(long id, String model, long createdAt) {
    }

    private record CachedQuery(float[] vector, long at) {
    }

    void start(@Observes @Priority(300) @Initialized(ApplicationScoped.class) Object event) {
        worker = threadFactory.newThread(this::work);
        worker.setName("lango-embeddings");
        worker.start();
    }

    @PreDestroy
    void stop() {
        stopping = true;
        Thread t = worker;
        if (t != null) {
            t.interrupt();
        }
        index.close();
    }

    /** The provider and model vectors are computed with, e.g. "local/all-minilm-l6-v2-q". */
    public String model() {
        return settings.provider() + "/" + settings.model().orElse(Embedders.defaultModel(settings.provider()));
    }

    /** Queues the document to be embedded and stored; never blocks. False when the queue is full (it is embedded at the next start). */
    public boolean index(Document document) {
        removedInFlight.remove(document.key());
        unfinished.incrementAndGet();
        boolean queued = queue.offer(document);
        if (!queued) {
            unfinished.decrementAndGet();
            LOG.warning(() -> "the embedding queue is full (" + QUEUE_CAPACITY + "); " + document.node()
                    + " is embedded at the next start");
        }
        return queued;
    }

    /** Deletes the document's vector now (and forgets it if it is waiting to be embedded); {@code scope} as {@link Document#scope}. */
    public void remove(String collection, String sourceId, String scope) {
        String key = Document.key(collection, sourceId, scope);
        unqueue(d -> d.key().equals(key));
        removedInFlight.add(key);
        rows.delete(collection, sourceId, scope);
        forget(key);
        index.refresh();
    }

    /** Takes the documents that match out of the queue, and so out of {@link #unfinished}. */
    private void unqueue(java.util.function.Predicate<Document> which) {
        for (Document queued : queue) {
            if (which.test(queued) && queue.remove(queued)) {
                unfinished.decrementAndGet();
            }
        }
    }

    /** Deletes the vectors of a session's observations and reflections. */
    public void removeSession(SessionRef session) {
        String sessionScope = session.scope();
        unqueue(d -> sessionScope.equals(d.scope()));
        rows.deleteScope(sessionScope);
        for (Map.Entry<String, Meta> e : stored.entrySet()) {
            if (index.scopeOf(e.getKey()).filter(sessionScope::equals).isPresent()) {
                removedInFlight.add(e.getKey());
                forget(e.getKey());
            }
        }
        index.refresh();
    }

    /**
     * The at most {@code limit} documents of {@code collections} (all when empty) most relevant to
     * the query, by vector similarity and keywords fused, of what {@code session}'s user may see:
     * shared knowledge and learnings, their own, and only this session's observations and
     * reflections (without a session: what is shared). Keywords alone while the embedding model
     * cannot answer.
     */
    public List<Hit> search(String query, int limit, Collection<String> collections, SessionRef session) {
        return search(query, limit, collections, scopes(session), -1);
    }

    /**
     * As above, for a prompt section: only what shares a keyword with the query or is at least
     * {@link #RELATED} similar to it, so that a section is empty rather than filled with the nearest unrelated text.
     */
    public List<Hit> related(String query, int limit, Collection<String> collections, SessionRef session) {
        return search(query, limit, collections, scopes(session), RELATED);
    }

    /** What a turn of the session sees beyond what is shared: the session's memory and its user's own rows. */
    private static Set<String> scopes(SessionRef session) {
        return session == null ? Set.of() : Set.of(session.scope(), SessionRef.ownerScope(session.userId()));
    }

    private List<Hit> search(String query, int limit, Collection<String> collections, Set<String> scopes, double minSimilarity) {
        if (query == null || query.isBlank() || limit <= 0) {
            return List.of();
        }
        syncIfDue();
        Set<String> wanted = collections == null || collections.isEmpty() ? Set.copyOf(Document.COLLECTIONS) : Set.copyOf(collections);
        if (!index.holdsAny(wanted, scopes)) {
            return List.of(); // nothing to find: the query is not embedded, which keeps turns without knowledge fast
        }
        return index.search(query, queryVector(query), wanted, scopes, limit, minSimilarity);
    }

    /** Whether nothing is waiting to be embedded and the start's reconciliation is done (for tests and health). */
    public boolean idle() {
        return reconciled && unfinished.get() == 0;
    }

    /** Waits until {@link #idle()}; false when the time ran out. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!idle()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** How many vectors this server's copy holds, per collection. */
    public Map<String, Integer> counts() {
        syncIfDue();
        Map<String, Integer> counts = new LinkedHashMap<>();
        Document.COLLECTIONS.forEach(c -> counts.put(c, 0));
        stored.keySet().forEach(key -> counts.merge(key.substring(0, key.indexOf(':')), 1, Integer::sum));
        return counts;
    }

    /** Why the embedding model is not available, if it is not. */
    public Optional<String> failure() {
        return Optional.ofNullable(embedderFailure);
    }

    private float[] queryVector(String query) {
        long now = System.currentTimeMillis();
        synchronized (queries) {
            CachedQuery cached = queries.get(query);
            if (cached != null && now - cached.at() < QUERY_TTL.toMillis()) {
                return cached.vector();
            }
        }
        Optional<Embedder> e = embedder();
        if (e.isEmpty()) {
            return null;
        }
        try {
            float[] vector = e.get().embed(List.of(head(query))).get(0);
            synchronized (queries) {
                queries.put(query, new CachedQuery(vector, now));
                if (queries.size() > QUERY_CACHE) {
                    queries.remove(queries.keySet().iterator().next());
                }
            }
            return vector;
        } catch (RuntimeException failure) {
            LOG.warning(() -> "searching by keywords only: " + failure.getMessage());
            return null;
        }
    }

    private Optional<Embedder> embedder() {
        Embedder current = embedder;
        if (current != null) {
            return Optional.of(current);
        }
        synchronized (this) {
            if (embedder == null) {
                try {
                    embedder = Embedders.create(settings, database.dataDir().resolve("cache"));
                    embedderFailure = null;
                    LOG.info(() -> "embedding model: " + embedder.model());
                } catch (RuntimeException | LinkageError failure) {
                    embedderFailure = failure.toString();
                    LOG.log(Level.SEVERE, "the embedding model " + model() + " cannot be loaded: " + failure, failure);
                    return Optional.empty();
                }
            }
            return Optional.of(embedder);
        }
    }

    private void work() {
        try {
            sync();
            reconcile();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the vector index could not be put right at start: " + e.getMessage(), e);
        } finally {
            reconciled = true;
        }
        while (!stopping) {
            try {
                Document first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                List<Document> taken = new ArrayList<>(List.of(first));
                queue.drainTo(taken, BATCH - 1);
                try {
                    Map<String, Document> batch = new LinkedHashMap<>();
                    taken.forEach(d -> batch.put(d.key(), d));
                    batch.values().removeIf(this::current);
                    embedAndStore(new ArrayList<>(batch.values()));
                } finally {
                    unfinished.addAndGet(-taken.size());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | LinkageError e) {
                LOG.log(Level.WARNING, "documents not embedded (embedded again at the next start): " + e.getMessage(), e);
            }
        }
    }

    /** Embeds the documents in batches and stores each vector, unless the document was removed meanwhile. */
    private void embedAndStore(List<Document> documents) {
        Optional<Embedder> e = embedder();
        if (e.isEmpty()) {
            return;
        }
        for (int from = 0; from < documents.size(); from += BATCH) {
            List<Document> batch = documents.subList(from, Math.min(documents.size(), from + BATCH));
            List<float[]> vectors = e.get().embed(batch.stream().map(d -> head(d.content())).toList());
            for (int i = 0; i < batch.size(); i++) {
                Document d = batch.get(i);
                if (removedInFlight.remove(d.key())) {
                    continue;
                }
                StoredVector row;
                try {
                    row = rows.replace(d, e.get().model(), vectors.get(i));
                } catch (RuntimeException raced) {
                    // Another server stored the same document at the same moment: one of the two stands.
                    LOG.fine(() -> d.node() + " was stored by another server: " + raced.getMessage());
                    continue;
                }
                take(row);
            }
            index.refresh();
        }
    }

    /** Embeds what is missing or stale, deletes what has no row any more. */
    private void reconcile() {
        long snapshot = System.currentTimeMillis();
        String model = embedder().map(Embedder::model).orElse(null);
        List<Document> toEmbed = new ArrayList<>();
        int orphans = 0;
        for (Corpus corpus : corpora) {
            Map<String, Document> current = new HashMap<>();
            corpus.documents().forEach(d -> current.put(d.key(), d));
            for (Document d : current.values()) {
                if (!current(d)) {
                    toEmbed.add(d);
                }
            }
            String prefix = corpus.collection() + ":";
            for (Map.Entry<String, Meta> e : new HashSet<>(stored.entrySet())) {
                if (e.getKey().startsWith(prefix) && !current.containsKey(e.getKey()) && e.getValue().createdAt() < snapshot) {
                    rows.delete(e.getValue().id());
                    forget(e.getKey());
                    orphans++;
                }
            }
        }
        index.refresh();
        if (model != null && !toEmbed.isEmpty()) {
            LOG.info(() -> "embedding " + toEmbed.size() + " documents with " + model + " (missing, changed or of another model)");
            embedAndStore(toEmbed);
        }
        if (orphans > 0) {
            int n = orphans;
            LOG.info(() -> "deleted " + n + " vectors whose rows are gone");
        }
    }

    private static String head(String text) {
        return text.length() <= EMBEDDED_CHARS ? text : text.substring(0, EMBEDDED_CHARS);
    }

    /** Whether the document's stored vector was computed from this very text by the current model. */
    private boolean current(Document d) {
        Meta meta = stored.get(d.key());
        return meta != null && meta.model().equals(model()) && index.contentOf(d.key()).filter(d.content()::equals).isPresent()
                && java.util.Objects.equals(index.scopeOf(d.key()).orElse(null), d.scope());
    }

    private void syncIfDue() {
        if (System.currentTimeMillis() - lastSync >= SYNC_INTERVAL.toMillis()) {
            try {
                sync();
            } catch (RuntimeException e) {
                LOG.warning(() -> "the vector index could not be read; searching what this server has: " + e.getMessage());
            }
        }
    }

    /** Takes in what other servers stored or deleted, when the table's fingerprint differs from the copy's. */
    private void sync() {
        synchronized (syncLock) {
            lastSync = System.currentTimeMillis();
            EmbeddingRows.Fingerprint db = rows.fingerprint();
            long maxId = keysById.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
            if (db.count() == keysById.size() && db.maxId() == maxId) {
                return;
            }
            Set<Long> ids = new HashSet<>(rows.ids());
            for (Long id : new ArrayList<>(keysById.keySet())) {
                if (!ids.contains(id)) {
                    String key = keysById.get(id);
                    if (key != null) {
                        forget(key);
                    }
                }
            }
            ids.removeAll(keysById.keySet());
            rows.byIds(ids).forEach(this::take);
            index.refresh();
        }
    }

    private void take(StoredVector row) {
        synchronized (syncLock) {
            takeLocked(row);
        }
    }

    private void takeLocked(StoredVector row) {
        String key = row.document().key();
        Meta previous = stored.put(key, new Meta(row.id(), row.model(), row.createdAt()));
        if (previous != null) {
            keysById.remove(previous.id());
        }
        keysById.put(row.id(), key);
        index.put(row.document(), row.model().equals(model()) ? row.vector() : new float[0]);
    }

    private void forget(String key) {
        synchronized (syncLock) {
            forgetLocked(key);
        }
    }

    private void forgetLocked(String key) {
        Meta meta = stored.remove(key);
        if (meta != null) {
            keysById.remove(meta.id());
        }
        index.remove(key);
    }
}
