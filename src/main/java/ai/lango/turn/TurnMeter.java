package ai.lango.turn;

import java.util.List;

/**
 * What a turn's model calls owe its user: a check of their budgets before each call (a budget reached ends
 * the turn there, its work so far kept), and each call's usage, kept until the session write of the answer
 * it made takes it into its own transaction (so a call costs no commit of its own).
 */
public interface TurnMeter {

    /** Nothing checked and nothing kept: a turn of code without the container (tests, benchmarks). */
    TurnMeter NONE = new TurnMeter() {
        @Override
        public void beforeCall() {
        }

        @Override
        public void called(ModelCall call) {
        }

        @Override
        public List<ModelCall> drain() {
            return List.of();
        }
    };

    /** Before a model call: throws {@link BudgetExceededException} when one of the user's budgets is reached. */
    void beforeCall();

    /** A model call answered: its usage, to be written with the session write of its answer. */
    void called(ModelCall call);

    /** The calls not written yet, now the caller's to write. */
    List<ModelCall> drain();
}
