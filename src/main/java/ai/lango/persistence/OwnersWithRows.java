package ai.lango.persistence;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The owners that have rows in one table, remembered where this server is the database's only
 * writer (the embedded database, {@code LangoSettings.DbKind#exclusive}): a look-up for owners
 * none of which has a row can then be skipped without asking the database. Read from the table
 * at first use and added to before every insert (so an owner is never missing while its row
 * exists; a failed insert or a deletion only costs a look-up that finds nothing). On a shared
 * database another server may insert at any time, so every look-up asks.
 */
public final class OwnersWithRows {

    private final boolean exclusive;
    private final Supplier<Collection<String>> stored;
    private final Set<String> owners = ConcurrentHashMap.newKeySet();
    private volatile boolean loaded;

    /** @param stored the table's distinct owners, read from the database */
    public OwnersWithRows(boolean exclusive, Supplier<Collection<String>> stored) {
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
        return asked.stream().anyMatch(owners::contains);
    }

    /** Called before a row of {@code owner} is inserted. */
    public void adding(String owner) {
        owners.add(owner);
    }

    private synchronized void load() {
        if (!loaded) {
            owners.addAll(stored.get());
            loaded = true;
        }
    }
}
