package ai.lango.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Whether the tool calls of a turn match the expected ones, by name and arguments (numbers by value: 1 equals 1.0). */
public final class Trajectory {

    /** Compares numbers by value and everything else as JSON does. */
    private static final Comparator<JsonNode> VALUES = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private Trajectory() {
    }

    public static boolean matches(List<Invocation.ToolUse> expected, List<Invocation.ToolUse> actual, Metric.MatchType type) {
        return switch (type) {
            case EXACT -> expected.size() == actual.size() && inOrder(expected, actual);
            case IN_ORDER -> inOrder(expected, actual);
            case ANY_ORDER -> anyOrder(expected, actual);
        };
    }

    public static boolean same(Invocation.ToolUse a, Invocation.ToolUse b) {
        return a.name().equals(b.name()) && a.args().equals(VALUES, b.args());
    }

    private static boolean inOrder(List<Invocation.ToolUse> expected, List<Invocation.ToolUse> actual) {
        int next = 0;
        for (Invocation.ToolUse call : actual) {
            if (next < expected.size() && same(expected.get(next), call)) {
                next++;
            }
        }
        return next == expected.size();
    }

    private static boolean anyOrder(List<Invocation.ToolUse> expected, List<Invocation.ToolUse> actual) {
        List<Invocation.ToolUse> left = new ArrayList<>(actual);
        for (Invocation.ToolUse wanted : expected) {
            int found = -1;
            for (int i = 0; i < left.size() && found < 0; i++) {
                if (same(wanted, left.get(i))) {
                    found = i;
                }
            }
            if (found < 0) {
                return false;
            }
            left.remove(found);
        }
        return true;
    }
}
