package ai.lango.graph;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * lango_triples' units of work, each its own transaction (an insert that loses a race to the same
 * triple fails alone). Reads see the scopes they are given, or every scope when given null.
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
class GraphRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    boolean exists(Triple t, String scope) {
        return !em.createQuery("SELECT e.id FROM TripleEntity e WHERE e.subject = :s AND e.predicate = :p AND e.object = :o"
                                + " AND e.scope = :k", Long.class)
                .setParameter("s", t.subject()).setParameter("p", t.predicate()).setParameter("o", t.object())
                .setParameter("k", scope).setMaxResults(1).getResultList().isEmpty();
    }

    void insert(Triple t, String source, String scope) {
        em.persist(new TripleEntity(t, source, scope, System.currentTimeMillis()));
        em.flush();
    }

    /** Triples of the scopes matching the given parts (null: any), by the index that serves them, at most {@code limit}. */
    List<Triple> matching(String subject, String predicate, String object, Collection<String> scopes, int limit) {
        StringBuilder jpql = new StringBuilder("SELECT e FROM TripleEntity e WHERE 1 = 1");
        if (scopes != null) {
            jpql.append(" AND e.scope IN :k");
        }
        if (subject != null) {
            jpql.append(" AND e.subject = :s");
        }
        if (predicate != null) {
            jpql.append(" AND e.predicate = :p");
        }
        if (object != null) {
            jpql.append(" AND e.object = :o");
        }
        // Subject first (the unique index: subject, predicate, object), else object first (object, subject, predicate).
        jpql.append(subject != null || object == null ? " ORDER BY e.subject, e.predicate, e.object"
                : " ORDER BY e.object, e.subject, e.predicate");
        var query = em.createQuery(jpql.toString(), TripleEntity.class).setMaxResults(limit);
        if (scopes != null) {
            query.setParameter("k", new ArrayList<>(scopes));
        }
        if (subject != null) {
            query.setParameter("s", subject);
        }
        if (predicate != null) {
            query.setParameter("p", predicate);
        }
        if (object != null) {
            query.setParameter("o", object);
        }
        return query.getResultList().stream().map(TripleEntity::view).toList();
    }

    /** The triples of the scopes with this node as subject or as object, at most {@code limit} of each. */
    List<Triple> touching(String node, Collection<String> scopes, int limit) {
        List<Triple> out = new ArrayList<>(matching(node, null, null, scopes, limit));
        out.addAll(matching(null, null, node, scopes, limit));
        return out;
    }

    int deleteBySource(String source, String scope) {
        return em.createQuery("DELETE FROM TripleEntity e WHERE e.source = :src AND e.scope = :k").setParameter("src", source)
                .setParameter("k", scope).executeUpdate();
    }

    int deleteTouching(String node, String scope) {
        return em.createQuery("DELETE FROM TripleEntity e WHERE (e.subject = :n OR e.object = :n) AND e.scope = :k")
                .setParameter("n", node).setParameter("k", scope).executeUpdate();
    }

    long count() {
        return em.createQuery("SELECT COUNT(e) FROM TripleEntity e", Long.class).getSingleResult();
    }

    Map<String, Long> countByPredicate() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Object[] row : em.createQuery("SELECT e.predicate, COUNT(e) FROM TripleEntity e GROUP BY e.predicate"
                + " ORDER BY e.predicate", Object[].class).getResultList()) {
            counts.put((String) row[0], ((Number) row[1]).longValue());
        }
        return counts;
    }
}
