package ai.lango.usage;

import ai.lango.turn.BudgetExceededException;
import ai.lango.turn.ModelCall;
import ai.lango.turn.TurnMeter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one turn's model calls owe: its user's budgets checked before each call, each call counted as it is
 * made and kept until the session's next write takes it into its transaction — so a call's usage is committed
 * with the event of its answer, with no commit of its own. One per turn, made by {@link UsageLedger#forTurn}
 * and carried by the turn's context.
 */
final class TurnUsage implements TurnMeter {

    private final String userId;
    private final boolean admin;
    private final UsageLedger ledger;
    private final Budgets budgets;
    private final List<ModelCall> pending = new ArrayList<>();

    TurnUsage(String userId, boolean admin, UsageLedger ledger, Budgets budgets) {
        this.userId = userId;
        this.admin = admin;
        this.ledger = ledger;
        this.budgets = budgets;
    }

    @Override
    public void beforeCall() {
        budgets.check(userId, admin).ifPresent(reached -> {
            throw new BudgetExceededException(reached.message(), reached.retryAfter(Instant.now()));
        });
    }

    @Override
    public synchronized void called(ModelCall call) {
        ledger.counted(call);
        pending.add(call);
    }

    @Override
    public synchronized List<ModelCall> drain() {
        List<ModelCall> taken = List.copyOf(pending);
        pending.clear();
        return taken;
    }
}
