package ai.lango.database;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The keys (owners, sessions) that have rows of some kind in one table, remembered where this
 * server is the database's only writer (the embedded database, {@code LangoSettings.DbKind#exclusive}):
 * a look-up for keys none of which has such a row can then be skipped without asking the database.
 * Read from the table at first use and added to before every insert of such a row (so a key is
 * never missing while its row exists; a failed insert, a deletion or a row that changed kind since
 * only costs a look-up that finds nothing). On a shared database another server may insert at any
 * time, so every look-up asks.
 */
public final class KeysWithRows {

    private final boolean exclusive;
    private final Supplier<Collection<String>> stored;
    private final Set<String> keys = ConcurrentHashMap.newKeySet();
    private volatile boolean loaded;

    /** @param stored the table's distinct keys with such rows, read from the database */
    public KeysWithRows(boolean exclusive, Supplier<Collection<String>> stored) {
        this.exclusive = exclusive;
        this.stored = stored;
    }

    /** False only when none of {@code asked} can have a row: the look-up would find nothing. */
    public boolean mayHold(Collection<String> asked) {
        if (!exclusive) {
            return true;
        }
        if (!loaded) {
            load();
        }
        return asked.stream().anyMatch(keys::contains);
    }

    /** Called before a row of {@code key} is inserted. */
    public void adding(String key) {
        keys.add(key);
    }

    private synchronized void load() {
        if (!loaded) {
            keys.addAll(stored.get());
            loaded = true;
        }
    }
}
