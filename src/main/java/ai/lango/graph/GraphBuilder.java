package ai.lango.graph;

import ai.lango.config.LangoSettings;
import ai.lango.knowledge.KnowledgeDeleted;
import ai.lango.knowledge.KnowledgeSaved;
import ai.lango.masking.MaskedLogs;
import ai.lango.memory.MemoryCleared;
import ai.lango.memory.ObservationSaved;
import ai.lango.memory.ReflectionSaved;
import ai.lango.prompt.Bounded;
import ai.lango.provider.Completion;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.turn.SessionRef;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where triples come from, off the request path (one worker thread, a bounded queue):
 * <ul>
 * <li>saved knowledge: {@code knowledge:<key> contains collection:knowledge}, and what the agent's
 *     model extracts from its content (at most 10, see {@link TripleParser}), and the entry
 *     {@code related_to} each thing those name (so search hits lead into them), all in the scope of
 *     the entry's owner; saving the key again replaces what came from it, deleting it deletes them;</li>
 * <li>memory: {@code observation:<id> in_session session:<key>}, {@code follows} the session's
 *     previous observation, {@code reflection:<id> reflects_on} each observation or reflection it
 *     folds, in the session's scope; clearing a session's memory (or deleting the session) deletes them.</li>
 * </ul>
 */
@ApplicationScoped
public class GraphBuilder {

    static final String EXTRACTION = """
            Extract the relationships the text states as knowledge-graph triples.
            Answer with one triple per line, exactly SUBJECT|PREDICATE|OBJECT, nothing else.
            Use only these predicates: related_to, caused_by, resolved_by, follows, similar_to, contains.
            Subjects and objects are short noun phrases taken from the text.
            At most 10 triples. If the text states no relationship, answer NONE.""";

    /** Work waiting for the worker, at most; beyond it a warning, and those triples are not made. */
    static final int QUEUE = 1024;
    /** The most characters of one text the extraction model reads (a knowledge entry is at most lango.knowledge.max-entry-chars). */
    static final int MAX_EXTRACTION_INPUT = 8_000;

    private static final Logger LOG = MaskedLogs.of(GraphBuilder.class);

    @Inject
    LangoSettings.Retrieval settings;

    @Inject
    LangoSettings.Model model;

    @Inject
    GraphStore store;

    /** Where the extraction calls are counted (null without the container). */
    @Inject
    ai.lango.usage.UsageLedger ledger;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    private ThreadPoolExecutor worker;
    private volatile Provider provider;
    private final AtomicBoolean saidNoModel = new AtomicBoolean();

    @PostConstruct
    void start() {
        worker = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), threadFactory);
        worker.allowCoreThreadTimeOut(true);
    }

    @PreDestroy
    void stop() {
        worker.shutdownNow();
    }

    void knowledgeSaved(@Observes KnowledgeSaved saved) {
        String node = "knowledge:" + saved.entry().key();
        String content = saved.entry().content();
        String scope = GraphStore.ownerScope(saved.entry().owner());
        later("knowledge " + saved.entry().key(), () -> {
            store.deleteBySource(node, scope);
            store.add(List.of(Triple.of(node, Predicates.CONTAINS, "collection:knowledge")), node, scope);
            List<Triple> extracted = extract(content, node, saved.entry().owner());
            store.add(extracted, node, scope);
            store.add(mentions(node, extracted), node, scope);
        });
    }

    void knowledgeDeleted(@Observes KnowledgeDeleted deleted) {
        later("knowledge " + deleted.key(), () -> store.forget("knowledge:" + deleted.key(), GraphStore.ownerScope(deleted.owner())));
    }

    void observationSaved(@Observes ObservationSaved saved) {
        String node = "observation:" + saved.id();
        List<Triple> links = new ArrayList<>(List.of(
                Triple.of(node, Predicates.CONTAINS, "collection:observation"),
                Triple.of(node, Predicates.IN_SESSION, session(saved.session()))));
        if (saved.previousId() != null) {
            links.add(Triple.of(node, Predicates.FOLLOWS, "observation:" + saved.previousId()));
        }
        later(node, () -> store.add(links, session(saved.session()), saved.session().scope()));
    }

    void reflectionSaved(@Observes ReflectionSaved saved) {
        String node = "reflection:" + saved.id();
        List<Triple> links = new ArrayList<>(List.of(
                Triple.of(node, Predicates.CONTAINS, "collection:reflection"),
                Triple.of(node, Predicates.IN_SESSION, session(saved.session()))));
        saved.observationIds().forEach(id -> links.add(Triple.of(node, Predicates.REFLECTS_ON, "observation:" + id)));
        saved.reflectionIds().forEach(id -> links.add(Triple.of(node, Predicates.REFLECTS_ON, "reflection:" + id)));
        later(node, () -> store.add(links, session(saved.session()), saved.session().scope()));
    }

    void memoryCleared(@Observes MemoryCleared cleared) {
        later(session(cleared.session()), () -> store.deleteBySource(session(cleared.session()), cleared.session().scope()));
    }

    /**
     * {@code knowledge:<key> related_to} each thing its triples name (at most 20), so that a search
     * that finds the entry reaches them, and their relations, through the graph.
     */
    static List<Triple> mentions(String node, List<Triple> extracted) {
        java.util.Set<String> things = new java.util.LinkedHashSet<>();
        extracted.forEach(t -> {
            things.add(t.subject());
            things.add(t.object());
        });
        return things.stream().limit(2L * TripleParser.MAX_TRIPLES)
                .map(thing -> new Triple(node, Predicates.RELATED_TO, thing, Map.of("source", node))).toList();
    }

    /** Whether nothing waits or runs (for tests). */
    public boolean idle() {
        return worker.getQueue().isEmpty() && worker.getActiveCount() == 0;
    }

    /** A session's node: named by its scope, as session ids are unique per user only. */
    static String session(SessionRef session) {
        return "session:" + session.scope();
    }

    private void later(String what, Runnable work) {
        if (!settings.graphEnabled()) {
            return;
        }
        try {
            worker.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "graph: " + what + " not updated: " + e.getMessage(), LOG.isLoggable(Level.FINE) ? e : null);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException full) {
            LOG.warning(() -> "graph: " + QUEUE + " updates wait already; " + what + " is left out");
        }
    }

    /** What the agent's model reads out of the text; none without a model or when it fails. */
    private List<Triple> extract(String text, String source, String owner) {
        if (model.provider().isEmpty() || model.name().isEmpty()) {
            if (saidNoModel.compareAndSet(false, true)) {
                LOG.info("graph: no model is configured (lango.provider, lango.model), so no triples are extracted from knowledge");
            }
            return List.of();
        }
        Provider p = provider;
        if (p == null) {
            LangoSettings.ModelProvider chosen = model.provider().get();
            p = ProviderCatalog.create(chosen.id(), chosen.baseUrl(), chosen.apiKey(), chosen.readTimeout());
            provider = p;
        }
        String answer = Completion.complete(p, model.name().get(), EXTRACTION, Bounded.text(text, MAX_EXTRACTION_INPUT),
                ai.lango.usage.AsideCalls.recordedIn(ledger, owner == null ? "" : owner, null, "graph", p.id(),
                        ai.lango.session.TokenEstimator::estimate));
        return TripleParser.parse(answer, Map.of("source", source));
    }
}
