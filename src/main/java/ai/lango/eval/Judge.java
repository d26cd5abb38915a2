package ai.lango.eval;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * final_response_match_v2: a model judges whether the agent's answer matches the expected one. Lango's own prompt
 * (docs/evaluation.md quotes it); the verdict is read from the answer's {@code "is_the_agent_response_valid"} label
 * (valid or invalid, as ADK's judge answers), and a turn's score is the majority of the samples (a tie is invalid).
 */
public final class Judge {

    /** How the judge is asked: the instruction, then {@link #question} as the message. */
    public static final String INSTRUCTION = """
            You grade an AI agent. You are given a user's request, the agent's answer and a reference answer that is \
            known to be right. Decide whether the agent's answer is valid: it must give the same facts, numbers, names \
            and conclusions as the reference, for what the user asked. Differences of wording, order, format or length \
            do not matter, nor do extra details that do not contradict the reference. An answer that leaves out what \
            the reference gives, contradicts it, or only partly matches it is invalid. Trust the reference for \
            calculations, tables and units.
            Answer with JSON only, in this form:
            {"reasoning": "<one or two sentences>", "is_the_agent_response_valid": "valid" | "invalid"}""";

    private static final Pattern LABEL = Pattern.compile(
            "\"is_the_agent_response_(valid|invalid)\"\\s*:\\s*\\[?\\s*\"?([A-Za-z_ ]+?)\"?\\s*\\]?\\s*[,}\\n]");

    private Judge() {
    }

    /** The message the judge reads for one turn. */
    public static String question(String request, String answer, String reference) {
        return "User's request:\n" + request + "\n\nAgent's answer:\n" + answer + "\n\nReference answer:\n" + reference;
    }

    /** 1.0 valid, 0.0 invalid, null when the judge's answer carries no verdict. */
    public static Double verdict(String judged) {
        if (judged == null) {
            return null;
        }
        Matcher label = LABEL.matcher(judged);
        if (!label.find()) {
            return null;
        }
        String value = label.group(2).trim().toLowerCase(Locale.ROOT);
        boolean validKey = label.group(1).equals("valid");
        if (validKey) {
            return switch (value) {
                case "valid", "true" -> 1.0;
                case "invalid", "false", "almost", "partially", "partially_valid", "partially valid" -> 0.0;
                default -> null;
            };
        }
        return value.equals("true") || value.equals("invalid") ? 0.0 : 1.0;
    }

    /** The majority of the samples' verdicts (null ones left out; a tie is invalid); null when none has one. */
    public static Double majority(java.util.List<Double> verdicts) {
        long valid = verdicts.stream().filter(v -> v != null && v == 1.0).count();
        long invalid = verdicts.stream().filter(v -> v != null && v == 0.0).count();
        if (valid + invalid == 0) {
            return null;
        }
        return valid > invalid ? 1.0 : 0.0;
    }
}
