package ai.lango.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeysWithRowsTest {

    @Test
    void onTheServersOwnDatabaseALookUpForOwnersWithoutRowsIsSkippedAndTheTableIsReadOnce() {
        AtomicInteger reads = new AtomicInteger();
        KeysWithRows owners = new KeysWithRows(true, () -> {
            reads.incrementAndGet();
            return List.of("alice", "*");
        });
        assertTrue(owners.mayHold(List.of("alice", "bob")));
        assertTrue(owners.mayHold(List.of("*")), "shared rows count for everybody who can see them");
        assertFalse(owners.mayHold(List.of("bob")));
        assertEquals(1, reads.get(), "the table is read at first use only");
    }

    @Test
    void anOwnerIsKnownFromTheMomentItsFirstRowIsAboutToBeInserted() {
        KeysWithRows owners = new KeysWithRows(true, List::of);
        assertFalse(owners.mayHold(List.of("carol")));
        owners.adding("carol");
        assertTrue(owners.mayHold(List.of("carol")));
    }

    @Test
    void anOwnerAddedBeforeTheFirstReadIsKeptByIt() {
        KeysWithRows owners = new KeysWithRows(true, () -> List.of("alice"));
        owners.adding("dave");
        assertTrue(owners.mayHold(List.of("dave")));
        assertTrue(owners.mayHold(List.of("alice")));
    }

    @Test
    void onASharedDatabaseEveryLookUpAsksIt() {
        AtomicInteger reads = new AtomicInteger();
        KeysWithRows owners = new KeysWithRows(false, () -> {
            reads.incrementAndGet();
            return List.of();
        });
        assertTrue(owners.mayHold(List.of("bob")), "another server may have inserted bob's first row");
        assertEquals(0, reads.get());
    }
}
