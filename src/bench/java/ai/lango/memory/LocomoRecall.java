package ai.lango.memory;

import ai.lango.config.Keys;
import ai.lango.config.TestSettings;
import ai.lango.knowledge.Keywords;
import ai.lango.session.Message;
import ai.lango.session.Roles;
import ai.lango.session.TokenEstimator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How much of a long conversation the memory keeps within its budget, on LoCoMo (10 conversations
 * of 19–35 sessions, 1,986 questions with the dialogue turns that hold their evidence).
 *
 * <p>Each conversation is fed message by message through the real thresholds (MemoryTriggers,
 * defaults 1000/2000/5) and the real section (MemorySection, 4000 tokens). The model is scripted
 * from LoCoMo's own model-written notes: the observer answers with LoCoMo's observations of the
 * turns it is given (each tied to its turn); the reflector with the first sentence of LoCoMo's
 * summary of every session it covers, at most 8 sentences (the prompt asks for 3 to 8);
 * consolidation with the first sentence of each folded reflection, at most 8. After the last
 * session every question is checked against what the model would be given:
 * <ul>
 * <li>evidence: every evidence turn is covered by an observation the section holds;</li>
 * <li>answer: the answer's text appears in it (a proxy that also credits reflections);</li>
 * </ul>
 * beside the same budget of raw history (the newest 4000 tokens: what the model sees without
 * memory) and beside loadMemory's keyword search (the top 10 remembered texts for the question).
 * Usage: {@code LocomoRecall <locomo10.json>}.
 */
public final class LocomoRecall {

    static final int BUDGET = Keys.MEMORY_TOKEN_BUDGET.defaultValue();
    static final int MAX_SENTENCES = 8;
    static final int SEARCH_LIMIT = 10;

    /** A remembered text and the dialogue turns whose facts it carries (empty for reflections). */
    record Item(String text, Set<String> evidence, int tokens, int generation) {
    }

    record Turn(String diaId, int session, Message message) {
    }

    /** Counts of one category: questions, and how many each reader recalled. */
    static final class Tally {
        int questions;
        int sectionEvidence;
        int sectionAnswer;
        int windowEvidence;
        int windowAnswer;
        int searchEvidence;
        int searchAnswer;
        int everEvidence;
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args.length > 0 ? args[0] : "../shared/data/locomo/locomo10.json");
        if (!Files.isRegularFile(file)) {
            System.out.println("LoCoMo not found at " + file + ": pass the path of locomo10.json");
            return;
        }
        JsonNode data = new ObjectMapper().readTree(file.toFile());
        Map<Integer, Tally> byCategory = new TreeMap<>();
        MemoryTriggers triggers = MemoryTriggers.of(TestSettings.defaults(java.nio.file.Path.of("/tmp/lango")).memory());
        int observations = 0;
        int reflections = 0;
        int sectionTokens = 0;
        for (JsonNode conversation : data) {
            Simulation run = new Simulation(conversation, triggers);
            run.feed();
            observations += run.observationsWritten;
            reflections += run.reflectionsWritten;
            String section = MemorySection.render(facts("reflection", run.reflections), facts("observation", run.observations),
                    BUDGET, new ai.lango.prompt.PromptContext("locomo", "bench", ""));
            sectionTokens += TokenEstimator.estimate(section);
            Set<String> sectionEvidence = new HashSet<>();
            run.observations.stream().filter(o -> section.contains(o.text())).forEach(o -> sectionEvidence.addAll(o.evidence()));
            Set<String> everObserved = new HashSet<>();
            run.allObservations.forEach(o -> everObserved.addAll(o.evidence()));
            List<Turn> window = window(run.turns);
            Set<String> windowIds = new HashSet<>();
            StringBuilder windowText = new StringBuilder();
            window.forEach(t -> {
                windowIds.add(t.diaId());
                windowText.append(t.message().content()).append('\n');
            });
            for (JsonNode qa : conversation.path("qa")) {
                if (!qa.has("answer")) {
                    continue; // adversarial questions have no answer to find
                }
                Tally tally = byCategory.computeIfAbsent(qa.path("category").asInt(), c -> new Tally());
                List<String> evidence = new ArrayList<>();
                qa.path("evidence").forEach(e -> evidence.add(e.asText().trim()));
                String answer = qa.path("answer").asText().toLowerCase(Locale.ROOT);
                tally.questions++;
                tally.sectionEvidence += sectionEvidence.containsAll(evidence) ? 1 : 0;
                tally.sectionAnswer += section.toLowerCase(Locale.ROOT).contains(answer) ? 1 : 0;
                tally.windowEvidence += windowIds.containsAll(evidence) ? 1 : 0;
                tally.windowAnswer += windowText.toString().toLowerCase(Locale.ROOT).contains(answer) ? 1 : 0;
                tally.everEvidence += everObserved.containsAll(evidence) ? 1 : 0;
                List<Item> found = search(run, qa.path("question").asText());
                Set<String> foundEvidence = new HashSet<>();
                found.forEach(i -> foundEvidence.addAll(i.evidence()));
                tally.searchEvidence += foundEvidence.containsAll(evidence) ? 1 : 0;
                tally.searchAnswer += found.stream().anyMatch(i -> i.text().toLowerCase(Locale.ROOT).contains(answer)) ? 1 : 0;
            }
        }
        System.out.printf("LoCoMo: %d conversations, %d observations and %d reflections written; memory section %d tokens"
                + " on average (budget %d)%n", data.size(), observations, reflections, sectionTokens / data.size(), BUDGET);
        System.out.println("recall after the last session, per LoCoMo category: evidence turns covered / answer text present");
        System.out.println("category  questions  memory section   history window (same budget)  loadMemory top 10   ever observed");
        Tally all = new Tally();
        byCategory.forEach((category, t) -> {
            print(String.valueOf(category), t);
            all.questions += t.questions;
            all.sectionEvidence += t.sectionEvidence;
            all.sectionAnswer += t.sectionAnswer;
            all.windowEvidence += t.windowEvidence;
            all.windowAnswer += t.windowAnswer;
            all.searchEvidence += t.searchEvidence;
            all.searchAnswer += t.searchAnswer;
            all.everEvidence += t.everEvidence;
        });
        print("all", all);
    }

    private static void print(String category, Tally t) {
        System.out.printf("%-9s %9d  %5.1f%% / %5.1f%%   %5.1f%% / %5.1f%%                %5.1f%% / %5.1f%%    %5.1f%%%n",
                category, t.questions, pct(t.sectionEvidence, t.questions), pct(t.sectionAnswer, t.questions),
                pct(t.windowEvidence, t.questions), pct(t.windowAnswer, t.questions),
                pct(t.searchEvidence, t.questions), pct(t.searchAnswer, t.questions), pct(t.everEvidence, t.questions));
    }

    private static double pct(int part, int whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    /** Items as the memory section shows them: quoted under a short label. */
    private static List<ai.lango.prompt.StoredText> facts(String kind, List<Item> items) {
        return java.util.stream.IntStream.range(0, items.size())
                .mapToObj(i -> new ai.lango.prompt.StoredText(kind + ":" + i, kind + " " + i, items.get(i).text())).toList();
    }

    /** The newest turns within the budget: what the model sees of the conversation without memory. */
    private static List<Turn> window(List<Turn> turns) {
        List<Turn> window = new ArrayList<>();
        int used = 0;
        for (int i = turns.size() - 1; i >= 0; i--) {
            used += TokenEstimator.messageTokens(turns.get(i).message());
            if (used > BUDGET) {
                break;
            }
            window.add(0, turns.get(i));
        }
        return window;
    }

    /** What loadMemory returns: the remembered texts ranked by the question's keywords, as MemoryRecall ranks them. */
    private static List<Item> search(Simulation run, String question) {
        List<String> keywords = Keywords.of(question);
        List<Item> remembered = new ArrayList<>(run.allReflections);
        remembered.addAll(run.allObservations);
        return remembered.stream()
                .filter(i -> MemoryRecall.score(i.text(), keywords) > 0)
                .sorted(Comparator.comparingLong((Item i) -> MemoryRecall.score(i.text(), keywords)).reversed())
                .limit(SEARCH_LIMIT).toList();
    }

    /** One conversation through the observer, the reflector and consolidation, with LoCoMo's notes as the model. */
    static final class Simulation {

        final List<Turn> turns = new ArrayList<>();
        final List<Item> observations = new ArrayList<>();
        final List<Item> allObservations = new ArrayList<>();
        final List<Item> reflections = new ArrayList<>();
        final List<Item> allReflections = new ArrayList<>();
        int observationsWritten;
        int reflectionsWritten;

        private final JsonNode conversation;
        private final MemoryTriggers triggers;
        private final Map<String, List<String>> notesByTurn = new TreeMap<>();
        private final Map<Integer, String> summaries = new TreeMap<>();
        private int observed;
        /** The sessions the unreflected observations cover. */
        private final Set<Integer> sessionsSinceReflection = new LinkedHashSet<>();

        Simulation(JsonNode conversation, MemoryTriggers triggers) {
            this.conversation = conversation;
            this.triggers = triggers;
            conversation.path("observation").fields().forEachRemaining(session -> session.getValue().fields()
                    .forEachRemaining(speaker -> speaker.getValue().forEach(note -> {
                        JsonNode ids = note.get(1);
                        List<String> turnIds = new ArrayList<>();
                        if (ids.isArray()) {
                            ids.forEach(id -> turnIds.add(id.asText().trim()));
                        } else {
                            turnIds.add(ids.asText().trim());
                        }
                        turnIds.forEach(id -> notesByTurn.computeIfAbsent(id, k -> new ArrayList<>()).add(note.get(0).asText()));
                    })));
            conversation.path("session_summary").fields().forEachRemaining(s -> summaries.put(
                    Integer.parseInt(s.getKey().replaceAll("\\D", "")), s.getValue().asText()));
        }

        void feed() {
            JsonNode dialogue = conversation.path("conversation");
            String first = dialogue.path("speaker_a").asText();
            for (int session = 1; dialogue.has("session_" + session); session++) {
                for (JsonNode turn : dialogue.path("session_" + session)) {
                    String text = turn.path("speaker").asText() + ": " + turn.path("text").asText()
                            + (turn.has("blip_caption") ? " [shares a photo: " + turn.path("blip_caption").asText() + "]" : "");
                    String role = first.equals(turn.path("speaker").asText()) ? Roles.USER : Roles.ASSISTANT;
                    turns.add(new Turn(turn.path("dia_id").asText().trim(), session,
                            new Message(role, text, Instant.EPOCH, null, List.of())));
                    keep();
                }
            }
        }

        /** What MemoryKeeper does after a turn, with the scripted model. */
        private void keep() {
            while (true) {
                if (observe()) {
                    continue;
                }
                if (triggers.reflect(observations.stream().mapToInt(Item::tokens).sum())) {
                    reflect();
                    continue;
                }
                if (triggers.metaReflect(reflections.size())) {
                    consolidate();
                    continue;
                }
                return;
            }
        }

        private boolean observe() {
            int unobserved = 0;
            for (int i = observed; i < turns.size(); i++) {
                unobserved += TokenEstimator.messageTokens(turns.get(i).message());
            }
            if (!triggers.observe(unobserved)) {
                return false;
            }
            int tokens = 0;
            int end = observed;
            while (end < turns.size() && !triggers.observe(tokens)) {
                tokens += TokenEstimator.messageTokens(turns.get(end++).message());
            }
            StringBuilder text = new StringBuilder();
            Set<String> evidence = new LinkedHashSet<>();
            for (int i = observed; i < end; i++) {
                Turn turn = turns.get(i);
                sessionsSinceReflection.add(turn.session());
                for (String note : notesByTurn.getOrDefault(turn.diaId(), List.of())) {
                    text.append(text.isEmpty() ? "" : " ").append(note);
                    evidence.add(turn.diaId());
                }
            }
            if (text.isEmpty()) {
                text.append("Small talk, nothing to note.");
            }
            observed = end;
            Item observation = new Item(text.toString(), evidence, TokenEstimator.estimate(text.toString()), 0);
            observations.add(observation);
            allObservations.add(observation);
            observationsWritten++;
            return true;
        }

        private void reflect() {
            List<String> sentences = new ArrayList<>();
            for (int session : sessionsSinceReflection) {
                String summary = summaries.getOrDefault(session, "");
                if (!summary.isEmpty() && sentences.size() < MAX_SENTENCES) {
                    sentences.add(firstSentence(summary));
                }
            }
            sessionsSinceReflection.clear();
            observations.clear();
            add(String.join(" ", sentences), 1);
        }

        private void consolidate() {
            int generation = reflections.stream().mapToInt(Item::generation).max().orElse(0) + 1;
            List<String> sentences = reflections.stream().map(r -> firstSentence(r.text())).limit(MAX_SENTENCES).toList();
            reflections.clear();
            add(String.join(" ", sentences), generation);
        }

        private void add(String text, int generation) {
            Item reflection = new Item(text, Set.of(), TokenEstimator.estimate(text), generation);
            reflections.add(reflection);
            allReflections.add(reflection);
            reflectionsWritten++;
        }

        private static String firstSentence(String text) {
            int end = text.indexOf(". ");
            return end < 0 ? text : text.substring(0, end + 1);
        }
    }
}
