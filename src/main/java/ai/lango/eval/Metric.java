package ai.lango.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A metric a run is scored by, with the threshold its score must reach (score >= threshold passes) and its options:
 * how tool calls are matched ({@code matchType}: exact, in order, any order) and how many times the judge is asked.
 * The names are ADK's ({@code tool_trajectory_avg_score}, {@code response_match_score},
 * {@code final_response_match_v2}) and Lango's ({@code delegation_match}, {@code approval_match}).
 */
public record Metric(String name, double threshold, MatchType matchType, int samples) {

    public static final String TRAJECTORY = "tool_trajectory_avg_score";
    public static final String RESPONSE = "response_match_score";
    public static final String JUDGE = "final_response_match_v2";
    public static final String DELEGATION = "delegation_match";
    public static final String APPROVAL = "approval_match";

    /** How the tool calls of an invocation are matched with the expected ones. */
    public enum MatchType {
        /** The same calls (name and arguments), no more, in the same order. */
        EXACT,
        /** The expected calls appear in this order; other calls between them are allowed. */
        IN_ORDER,
        /** Every expected call appears, in any order; other calls are allowed. */
        ANY_ORDER
    }

    /** What the dev UI shows of a metric: its name, what it measures, and its range. */
    public record Info(String name, String description) {
    }

    public static final List<Info> INFO = List.of(
            new Info(TRAJECTORY, "Compares the tool calls of each turn (name and arguments, ids ignored) with the expected"
                    + " ones: 1.0 when they match (exactly by default; criterion.matchType IN_ORDER or ANY_ORDER allows other"
                    + " calls), else 0.0; averaged over the turns. Higher is better."),
            new Info(RESPONSE, "ROUGE-1 F-measure of the final answer against the expected one (words, stemmed), from 0 to"
                    + " 1; averaged over the turns. Higher is better."),
            new Info(JUDGE, "Asks the configured model whether the final answer matches the expected one (Lango's judge"
                    + " prompt, docs/evaluation.md): 1.0 valid, 0.0 invalid, by majority of criterion.numSamples answers"
                    + " (default 5); averaged over the turns. Higher is better."),
            new Info(DELEGATION, "Lango: 1.0 when each turn was handed to the same agents, in the same order, as expected;"
                    + " else 0.0; averaged over the turns."),
            new Info(APPROVAL, "Lango: 1.0 when each turn asked for approval of the same tools, in the same order, with"
                    + " the same decisions as expected; else 0.0; averaged over the turns."));

    private static final Set<String> NAMES = Set.of(TRAJECTORY, RESPONSE, JUDGE, DELEGATION, APPROVAL);

    /** The metrics the dev UI asks by default (ADK's): the trajectory at 1.0, the response at 0.7. */
    public static List<Metric> defaults() {
        return List.of(new Metric(TRAJECTORY, 1.0, MatchType.EXACT, 1), new Metric(RESPONSE, 0.7, MatchType.EXACT, 1));
    }

    /**
     * The metrics of a run request: a list of {metricName, threshold} (ADK's dev UI), or with a criterion
     * {threshold, matchType, judgeModelOptions: {numSamples}} (ADK's newer form); either spelling. Empty or absent:
     * the defaults. An unknown name, a threshold outside 0..1 or a name twice is an error naming it.
     */
    public static List<Metric> parse(JsonNode metrics) throws EvalFormatException {
        if (metrics == null || metrics.isNull() || (metrics.isArray() && metrics.isEmpty())) {
            return defaults();
        }
        if (!metrics.isArray()) {
            throw new EvalFormatException("evalMetrics: must be a list of {metricName, threshold}");
        }
        List<Metric> parsed = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < metrics.size(); i++) {
            JsonNode metric = metrics.get(i);
            String where = "evalMetrics[" + i + "]";
            JsonNode nameNode = metric.has("metricName") ? metric.get("metricName") : metric.get("metric_name");
            if (nameNode == null || !nameNode.isTextual()) {
                throw new EvalFormatException(where + ".metricName: missing");
            }
            String name = nameNode.asText();
            if (!NAMES.contains(name)) {
                throw new EvalFormatException(where + ".metricName: unknown metric \"" + name + "\"; known: "
                        + String.join(", ", INFO.stream().map(Info::name).toList()));
            }
            if (!seen.add(name)) {
                throw new EvalFormatException(where + ".metricName: \"" + name + "\" is asked twice");
            }
            JsonNode criterion = metric.path("criterion");
            JsonNode thresholdNode = metric.has("threshold") && !metric.get("threshold").isNull() ? metric.get("threshold")
                    : criterion.get("threshold");
            if (thresholdNode == null || !thresholdNode.isNumber()) {
                throw new EvalFormatException(where + ".threshold: missing, or not a number from 0 to 1");
            }
            double threshold = thresholdNode.asDouble();
            if (!(threshold >= 0 && threshold <= 1)) {
                throw new EvalFormatException(where + ".threshold: " + thresholdNode + " is outside 0..1");
            }
            JsonNode matchNode = criterion.has("matchType") ? criterion.get("matchType") : criterion.get("match_type");
            MatchType match = MatchType.EXACT;
            if (matchNode != null && !matchNode.isNull()) {
                String wanted = matchNode.asText().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
                try {
                    match = matchNode.isInt() ? MatchType.values()[matchNode.asInt()] : MatchType.valueOf(wanted);
                } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                    throw new EvalFormatException(where + ".criterion.matchType: \"" + matchNode.asText()
                            + "\" is none of EXACT, IN_ORDER, ANY_ORDER");
                }
            }
            JsonNode options = criterion.has("judgeModelOptions") ? criterion.get("judgeModelOptions") : criterion.path("judge_model_options");
            JsonNode samplesNode = options.has("numSamples") ? options.get("numSamples") : options.get("num_samples");
            int samples = samplesNode == null || samplesNode.isNull() ? 5 : samplesNode.asInt(-1);
            if (samples < 1 || samples > 10) {
                throw new EvalFormatException(where + ".criterion.judgeModelOptions.numSamples: must be from 1 to 10");
            }
            parsed.add(new Metric(name, threshold, match, samples));
        }
        return parsed;
    }
}
