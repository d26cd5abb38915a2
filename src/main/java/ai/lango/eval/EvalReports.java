package ai.lango.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A stored result as JUnit XML, which CI tools show: one test suite for the run, one test case per eval case, a
 * failure per failed case naming each metric under its threshold and, per turn, what was expected against what came.
 */
public final class EvalReports {

    private EvalReports() {
    }

    public static String junit(JsonNode result) {
        JsonNode cases = result.path("evalCaseResults");
        int failures = 0;
        int skipped = 0;
        for (JsonNode c : cases) {
            int status = c.path("finalEvalStatus").asInt();
            failures += status == EvalRunner.FAILED ? 1 : 0;
            skipped += status == EvalRunner.NOT_EVALUATED ? 1 : 0;
        }
        double seconds = result.path("durationSeconds").asDouble();
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append("<testsuite name=\"").append(escape("eval." + result.path("evalSetId").asText())).append("\" tests=\"")
                .append(cases.size()).append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"").append(skipped)
                .append("\" time=\"").append(seconds).append("\">\n");
        xml.append("  <properties>\n");
        property(xml, "evalSetResultId", result.path("evalSetResultId").asText());
        result.path("configuration").fields().forEachRemaining(e -> property(xml, e.getKey(),
                e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()));
        xml.append("  </properties>\n");
        for (JsonNode c : cases) {
            xml.append("  <testcase classname=\"").append(escape("eval." + result.path("evalSetId").asText())).append("\" name=\"")
                    .append(escape(c.path("evalId").asText())).append("\">\n");
            int status = c.path("finalEvalStatus").asInt();
            if (status == EvalRunner.FAILED) {
                List<String> under = new ArrayList<>();
                for (JsonNode m : c.path("overallEvalMetricResults")) {
                    if (m.path("evalStatus").asInt() == EvalRunner.FAILED) {
                        under.add(m.path("metricName").asText() + " " + m.path("score").asDouble() + " < " + m.path("threshold").asDouble());
                    }
                }
                String message = c.hasNonNull("error") ? c.path("error").asText() : String.join("; ", under);
                xml.append("    <failure message=\"").append(escape(message)).append("\">").append(escape(differences(c)))
                        .append("</failure>\n");
            } else if (status == EvalRunner.NOT_EVALUATED) {
                xml.append("    <skipped message=\"").append(escape(c.path("error").asText("not evaluated"))).append("\"/>\n");
            }
            xml.append("  </testcase>\n");
        }
        return xml.append("</testsuite>\n").toString();
    }

    /** Per turn whose metric failed: the metric, and what was expected against what came. */
    public static String differences(JsonNode caseResult) {
        StringBuilder out = new StringBuilder();
        int turn = 0;
        for (JsonNode entry : caseResult.path("evalMetricResultPerInvocation")) {
            turn++;
            for (JsonNode m : entry.path("evalMetricResults")) {
                if (m.path("evalStatus").asInt() != EvalRunner.FAILED) {
                    continue;
                }
                String name = m.path("metricName").asText();
                out.append("turn ").append(turn).append(": ").append(name).append(' ').append(m.path("score").asDouble())
                        .append(" < ").append(m.path("threshold").asDouble()).append('\n');
                JsonNode expected = entry.path("expectedInvocation");
                JsonNode actual = entry.path("actualInvocation");
                switch (name) {
                    case Metric.TRAJECTORY -> pair(out, expected.path("intermediateData").path("toolUses"),
                            actual.path("intermediateData").path("toolUses"));
                    case Metric.DELEGATION -> pair(out, expected.path("delegations"), actual.path("delegations"));
                    case Metric.APPROVAL -> pair(out, expected.path("approvals"), actual.path("approvals"));
                    default -> pair(out, expected.path("finalResponse").path("parts").path(0).path("text"),
                            actual.path("finalResponse").path("parts").path(0).path("text"));
                }
            }
        }
        return out.toString();
    }

    private static void pair(StringBuilder out, JsonNode expected, JsonNode actual) {
        out.append("  expected: ").append(expected.isTextual() ? expected.asText() : expected.toString()).append('\n');
        out.append("  actual:   ").append(actual.isTextual() ? actual.asText() : actual.toString()).append('\n');
    }

    private static void property(StringBuilder xml, String name, String value) {
        xml.append("    <property name=\"").append(escape(name)).append("\" value=\"").append(escape(value)).append("\"/>\n");
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        out.append(' ');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
