package ai.lango.artifact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.masking.SecretMask;
import ai.lango.session.LocalTransactions;
import ai.lango.session.SessionDeleted;
import ai.lango.turn.SessionRef;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The artifact store on the embedded database, through EclipseLink and the Flyway schema. */
class ArtifactStoreTest {

    private static final SessionRef ANN = SessionRef.of("ann", "s1");
    private static final SessionRef ANN_OTHER = SessionRef.of("ann", "s2");
    private static final SessionRef BOB = SessionRef.of("bob", "s1");
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};

    @TempDir
    Path dir;

    @Test
    void versionsCountFromZeroPerNameAndTheLatestIsLoadedWithoutOne() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            ArtifactStore store = store(local);
            assertEquals(0, store.save(ANN, "shot.png", "image/png", PNG));
            assertEquals(1, store.save(ANN, "shot.png", "image/png", new byte[] {1}));
            assertEquals(0, store.save(ANN, "notes.txt", "text/plain", "hi".getBytes(StandardCharsets.UTF_8)));

            Artifact latest = store.load(ANN, "shot.png", Optional.empty()).orElseThrow();
            assertEquals(1, latest.version());
            assertArrayEquals(new byte[] {1}, latest.data());
            Artifact first = store.load(ANN, "shot.png", Optional.of(0)).orElseThrow();
            assertEquals("image/png", first.mimeType());
            assertArrayEquals(PNG, first.data());
            assertEquals(Optional.empty(), store.load(ANN, "shot.png", Optional.of(2)));
            assertEquals(List.of(0, 1), store.versions(ANN, "shot.png"));
            assertEquals(List.of("notes.txt", "shot.png"), store.names(ANN));
        }
    }

    @Test
    void anArtifactOfTheFullTenMebibytesIsStoredAndReadBackWhole() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            ArtifactStore store = store(local);
            byte[] full = new byte[ArtifactStore.MAX_BYTES];
            new java.util.Random(7).nextBytes(full);
            assertEquals(0, store.save(ANN, "page.png", "image/png", full));
            assertArrayEquals(full, store.load(ANN, "page.png", Optional.empty()).orElseThrow().data());
        }
    }

    @Test
    void anArtifactBelongsToItsUsersSessionOnly() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            ArtifactStore store = store(local);
            store.save(ANN, "shot.png", "image/png", PNG);
            assertEquals(List.of(), store.names(ANN_OTHER));
            assertEquals(List.of(), store.names(BOB));
            assertEquals(Optional.empty(), store.load(BOB, "shot.png", Optional.empty()));
            assertEquals(0, store.save(BOB, "shot.png", "image/png", PNG));
        }
    }

    @Test
    void deletingANameRemovesEveryVersionAndDeletingTheSessionEveryArtifact() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            ArtifactStore store = store(local);
            store.save(ANN, "a", null, PNG);
            store.save(ANN, "a", null, PNG);
            store.save(ANN, "b", null, PNG);
            store.save(ANN_OTHER, "a", null, PNG);
            assertEquals(ArtifactStore.DEFAULT_MIME_TYPE, store.load(ANN, "a", Optional.empty()).orElseThrow().mimeType());

            assertTrue(store.delete(ANN, "a"));
            assertFalse(store.delete(ANN, "a"));
            assertEquals(List.of(), store.versions(ANN, "a"));
            assertEquals(0, store.save(ANN, "a", null, PNG), "a deleted name starts again at 0");

            store.sessionDeleted(new SessionDeleted(ANN));
            assertEquals(List.of(), store.names(ANN));
            assertEquals(List.of("a"), store.names(ANN_OTHER));
        }
    }

    @Test
    void aVersionTakenTwiceIsRefusedByTheDatabaseAsADuplicate() throws Exception {
        try (LocalTransactions local = new LocalTransactions(dir)) {
            EntityManager em = local.entityManager();
            inTransaction(em, () -> {
                em.persist(new ArtifactEntity("1", ANN, "shot.png", 0, "image/png", PNG, 1));
                return null;
            });
            PersistenceException refused = assertThrows(PersistenceException.class, () -> inTransaction(em, () -> {
                em.persist(new ArtifactEntity("2", ANN, "shot.png", 0, "image/png", PNG, 2));
                em.flush();
                return null;
            }));
            assertTrue(ArtifactStore.duplicate(refused), refused.toString());
        }
    }

    @Test
    void aSaveThatLosesTheRaceForAVersionTriesTheNext() {
        AtomicInteger calls = new AtomicInteger();
        ArtifactStore store = new ArtifactStore();
        store.rows = new ArtifactRows() {
            @Override
            int insert(SessionRef session, String name, String mimeType, byte[] data, long now) {
                if (calls.incrementAndGet() < 3) {
                    throw new PersistenceException("flush failed", new SQLException("unique constraint violated", "23505"));
                }
                return 2;
            }
        };
        assertEquals(2, store.save(ANN, "shot.png", "image/png", PNG));
        assertEquals(3, calls.get());

        store.rows = new ArtifactRows() {
            @Override
            int insert(SessionRef session, String name, String mimeType, byte[] data, long now) {
                throw new PersistenceException("no database", new SQLException("connection refused", "08001"));
            }
        };
        assertThrows(PersistenceException.class, () -> store.save(ANN, "shot.png", "image/png", PNG), "only a duplicate is retried");
    }

    @Test
    void namesAndSizesAreCheckedWithMessagesThatSayWhy() {
        ArtifactStore store = new ArtifactStore();
        Map<String, String> refused = Map.of(
                "", "not blank",
                " ", "not blank",
                "a/b.png", "'/'",
                "a\nb", "control characters",
                "x".repeat(256), "at most 255 characters");
        refused.forEach((name, why) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.save(ANN, name, "image/png", PNG));
            assertTrue(e.getMessage().contains(why), e.getMessage());
        });
        assertThrows(IllegalArgumentException.class, () -> store.save(ANN, null, "image/png", PNG));
        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> store.save(ANN, "big.png", "image/png", new byte[ArtifactStore.MAX_BYTES + 1]));
        assertTrue(tooBig.getMessage().contains("10 MiB"), tooBig.getMessage());
        assertEquals("screen shot (1).png", ArtifactStore.requireName("screen shot (1).png"));
    }

    @Test
    void textIsStoredWithKnownSecretsMaskedAndBinaryAsItIs() {
        SecretMask.configured("TEST_ARTIFACT_KEY", "sk-artifact-0123456789");
        try {
            byte[] text = "key=sk-artifact-0123456789".getBytes(StandardCharsets.UTF_8);
            String stored = new String(ArtifactStore.masked("text/plain", text), StandardCharsets.UTF_8);
            assertFalse(stored.contains("sk-artifact-0123456789"), stored);
            assertArrayEquals(text, ArtifactStore.masked("image/png", text));
        } finally {
            SecretMask.configured(Map.of());
        }
    }

    @Test
    void anArtifactPrintsWithoutItsBytes() {
        Artifact artifact = new Artifact("shot.png", 1, "image/png", new byte[2048], java.time.Instant.EPOCH);
        assertEquals("Artifact[shot.png v1, image/png, 2048 bytes, 1970-01-01T00:00:00Z]", artifact.toString());
    }

    private static ArtifactStore store(LocalTransactions local) {
        EntityManager em = local.entityManager();
        ArtifactStore store = new ArtifactStore();
        store.rows = new ArtifactRows() {
            @Override
            int insert(SessionRef session, String name, String mimeType, byte[] data, long now) {
                return inTransaction(em, () -> super.insert(session, name, mimeType, data, now));
            }

            @Override
            Optional<Artifact> find(String scope, String name, Integer version) {
                return inTransaction(em, () -> super.find(scope, name, version));
            }

            @Override
            List<String> names(String scope) {
                return inTransaction(em, () -> super.names(scope));
            }

            @Override
            List<Integer> versions(String scope, String name) {
                return inTransaction(em, () -> super.versions(scope, name));
            }

            @Override
            int delete(String scope, String name) {
                return inTransaction(em, () -> super.delete(scope, name));
            }

            @Override
            int deleteSession(String scope) {
                return inTransaction(em, () -> super.deleteSession(scope));
            }
        };
        store.rows.em = em;
        return store;
    }

    /** One unit of work in its own transaction, as {@code @Transactional(REQUIRES_NEW)} gives it; rolled back on failure. */
    private static <T> T inTransaction(EntityManager em, Supplier<T> work) {
        EntityTransaction tx = em.getTransaction();
        tx.begin();
        try {
            T result = work.get();
            tx.commit();
            return result;
        } catch (RuntimeException e) {
            if (tx.isActive()) {
                tx.rollback();
            }
            em.clear();
            throw e;
        }
    }
}
