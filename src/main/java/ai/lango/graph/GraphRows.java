package ai.lango.graph;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** lango_triples' units of work, each its own transaction (an insert that loses a race to the same triple fails alone). */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
class GraphRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    boolean exists(Triple t) {
        return !em.createQuery("SELECT e.id FROM TripleEntity e WHERE e.subject = :s AND e.predicate = :p AND e.object = :o",
                        Long.class)
                .setParameter("s", t.subject()).setParameter("p", t.predicate()).setParameter("o", t.object())
                .setMaxResults(1).getResultList().isEmpty();
    }

    void insert(Triple t, String source) {
        em.persist(new TripleEntity(t, source, System.currentTimeMillis()));
        em.flush();
    }

    /** Triples matching the given parts (null: any), by the index that serves them, at most {@code limit}. */
    List<Triple> matching(String subject, String predicate, String object, int limit) {
        StringBuilder jpql = new StringBuilder("SELECT e FROM TripleEntity e WHERE 1 = 1");
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

    /** The triples with this node as subject or as object, at most {@code limit} of each. */
    List<Triple> touching(String node, int limit) {
        List<Triple> out = new java.util.ArrayList<>(matching(node, null, null, limit));
        out.addAll(matching(null, null, node, limit));
        return out;
    }

    int deleteBySource(String source) {
        return em.createQuery("DELETE FROM TripleEntity e WHERE e.source = :src").setParameter("src", source).executeUpdate();
    }

    int deleteTouching(String node) {
        return em.createQuery("DELETE FROM TripleEntity e WHERE e.subject = :n OR e.object = :n").setParameter("n", node)
                .executeUpdate();
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
