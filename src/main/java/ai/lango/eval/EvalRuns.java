package ai.lango.eval;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The eval runs going on in this server: at most lango.eval.max-runs at once, and one at a time for a user who does
 * not administer (as lango.quota.* bind them), so no user holds every slot; each cancellable by its user.
 */
@ApplicationScoped
public class EvalRuns {

    @Inject
    LangoSettings settings;

    private final Map<String, EvalRun> running = new ConcurrentHashMap<>();

    /**
     * A new run of {@code setId} for {@code userId} ({@code admin}: who administers), bounded by lango.eval.timeout;
     * refused (429) when enough run, or when a user who does not administer runs one already.
     */
    public synchronized EvalRun start(String userId, boolean admin, String setId) {
        if (!admin && !of(userId).isEmpty()) {
            throw new EvalLibrary.Refused(429, "eval_busy", "you run an eval already; one at a time (lango.eval.max-runs are"
                    + " shared by every user): try again when it ends, or cancel it (DELETE /api/eval/runs/{id})");
        }
        if (running.size() >= settings.eval().maxRuns()) {
            throw new EvalLibrary.Refused(429, "eval_busy", running.size() + " eval runs go on already (lango.eval.max-runs); try"
                    + " again when one ends");
        }
        Instant now = Instant.now();
        EvalRun run = new EvalRun(UUID.randomUUID().toString(), userId, setId, now, now.plus(settings.eval().timeout()));
        running.put(run.id(), run);
        return run;
    }

    public void finished(EvalRun run) {
        running.remove(run.id());
    }

    public List<EvalRun> of(String userId) {
        return running.values().stream().filter(r -> r.userId().equals(userId)).toList();
    }

    public Optional<EvalRun> get(String id, String userId) {
        return Optional.ofNullable(running.get(id)).filter(r -> r.userId().equals(userId));
    }
}
