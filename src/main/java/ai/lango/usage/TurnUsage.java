package ai.lango.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The usage of the model calls of the turn running on the calling thread, until the session's next write takes it
 * into its transaction: so a call's usage is committed with the event of its answer, with no commit of its own.
 * One per running turn, found by the turn's own thread.
 */
public final class TurnUsage {

    private static final ThreadLocal<TurnUsage> CURRENT = new ThreadLocal<>();

    private final String userId;
    private final String sessionKey;
    private final boolean admin;
    private final List<ModelCall> pending = new ArrayList<>();

    private TurnUsage(String userId, String sessionKey, boolean admin) {
        this.userId = userId;
        this.sessionKey = sessionKey;
        this.admin = admin;
    }

    /** A turn of {@code userId} in {@code sessionKey} starts on the calling thread; {@link #end} it there. */
    public static TurnUsage begin(String userId, String sessionKey, boolean admin) {
        TurnUsage usage = new TurnUsage(userId, sessionKey, admin);
        CURRENT.set(usage);
        return usage;
    }

    public static Optional<TurnUsage> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    public String userId() {
        return userId;
    }

    public String sessionKey() {
        return sessionKey;
    }

    public boolean admin() {
        return admin;
    }

    public synchronized void add(ModelCall call) {
        pending.add(call);
    }

    /** The calls not yet written, now the caller's to write. */
    public synchronized List<ModelCall> drain() {
        List<ModelCall> taken = List.copyOf(pending);
        pending.clear();
        return taken;
    }

    /** The calling thread's turn is over; what is left undrained is returned, for its caller to write. */
    public List<ModelCall> end() {
        CURRENT.remove();
        return drain();
    }

    /** The calling thread's turn's undrained calls, taken; none outside a turn. */
    public static List<ModelCall> drainCurrent() {
        return current().map(TurnUsage::drain).orElse(List.of());
    }
}
