package ai.lango.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A named list of eval cases, as ADK's *.evalset.json holds it. */
public record EvalSet(String id, String name, String description, List<EvalCase> cases, double created, ObjectNode extra) {

    public EvalSet {
        cases = List.copyOf(cases);
    }

    public static EvalSet empty(String id, double created) {
        return new EvalSet(id, id, null, List.of(), created, null);
    }

    public Optional<EvalCase> find(String evalId) {
        return cases.stream().filter(c -> c.evalId().equals(evalId)).findFirst();
    }

    /** This set with {@code evalCase} in place of the case of the same id, or added at the end. */
    public EvalSet with(EvalCase evalCase) {
        List<EvalCase> changed = new ArrayList<>(cases);
        changed.removeIf(c -> c.evalId().equals(evalCase.evalId()));
        changed.add(evalCase);
        return new EvalSet(id, name, description, changed, created, extra);
    }

    public EvalSet without(String evalId) {
        List<EvalCase> changed = new ArrayList<>(cases);
        changed.removeIf(c -> c.evalId().equals(evalId));
        return new EvalSet(id, name, description, changed, created, extra);
    }
}
