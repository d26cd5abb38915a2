package ai.lango.adk.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.session.TokenEstimator;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random sessions (text, tool calls with large results, approvals answered at once, later or never, errors, calls
 * cut by a crash) grown turn by turn and compacted as the server does, past 0.7 of a small budget: every history the
 * model would be sent at any step must be well formed, and no fold may take a confirmation still waiting.
 */
class CompactedHistoryGeneratorTest {

    /**
     * 2,000 random sessions in every build (about a fifth of a minute); the 10,000 of docs/benchmarks.md with
     * -Dlango.generator.sessions=10000.
     */
    static final int SESSIONS = Integer.getInteger("lango.generator.sessions", 2_000);
    private static final String AGENT = "lango";

    @Test
    void randomSessionsGiveNoMalformedRequest() {
        Totals totals = new Totals();
        for (int seed = 0; seed < SESSIONS; seed++) {
            new Session(new Random(seed), totals).run();
        }
        System.out.printf("compaction generator: %d sessions, %d turns, %d model requests checked, %d malformed,"
                        + " %d pending confirmations folded, %d compactions (%.1f per 100 turns), %d orphaned-call closings applied%n",
                SESSIONS, totals.turns, totals.requests, totals.malformed, totals.foldedPending, totals.compactions,
                100.0 * totals.compactions / totals.turns, totals.orphans);
        assertEquals(0, totals.malformed, totals.firstProblem);
        assertEquals(0, totals.foldedPending);
        assertTrue(totals.compactions > SESSIONS, "the generator must make compaction happen: " + totals.compactions);
    }

    static final class Totals {
        long turns;
        long requests;
        long malformed;
        long foldedPending;
        long compactions;
        long orphans;
        String firstProblem = "";
    }

    /** One random session: its events, its clock and its pending confirmations. */
    static final class Session {
        private final Random random;
        private final Totals totals;
        private final List<Event> events = new ArrayList<>();
        private final List<String[]> pending = new ArrayList<>(); // {confirmation id, call id}
        private final Map<Event, Integer> tokens = new IdentityHashMap<>();
        private final int budget;
        private final int keep;
        private long clock = 1_000;
        private int ids;

        Session(Random random, Totals totals) {
            this.random = random;
            this.totals = totals;
            this.budget = 300 + random.nextInt(1700);
            this.keep = 1 + random.nextInt(4);
        }

        void run() {
            int turns = 5 + random.nextInt(40);
            for (int turn = 0; turn < turns; turn++) {
                totals.turns++;
                turn(turn);
                compactIfPast();
            }
        }

        private void turn(int turn) {
            if (!pending.isEmpty() && random.nextInt(3) == 0) {
                String[] answered = pending.remove(random.nextInt(pending.size()));
                add(event("user", "user", response(answered[0], Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
                        Map.of("confirmed", random.nextBoolean()))));
                add(event(AGENT, "user", response(answered[1], "exec", Map.of("output", text(20 + random.nextInt(400))))));
                ask();
                add(event(AGENT, "model", Part.fromText(text(10 + random.nextInt(80)))));
                return;
            }
            add(event("user", "user", Part.fromText("turn " + turn + ": " + text(5 + random.nextInt(turn == 0 ? 60 : 300)))));
            ask();
            int kind = random.nextInt(10);
            if (kind < 3) {
                add(event(AGENT, "model", Part.fromText(text(10 + random.nextInt(200)))));
            } else if (kind < 6) {
                int rounds = 1 + random.nextInt(3);
                for (int round = 0; round < rounds; round++) {
                    List<Part> calls = new ArrayList<>();
                    List<Part> results = new ArrayList<>();
                    for (int n = 1 + random.nextInt(3); n > 0; n--) {
                        String id = "c" + ids++;
                        calls.add(call(id, "exec"));
                        results.add(response(id, "exec", Map.of("output", text(random.nextInt(4) == 0 ? 4000 : 200))));
                    }
                    add(event(AGENT, "model", calls.toArray(Part[]::new)));
                    add(event(AGENT, "user", results.toArray(Part[]::new)));
                    ask();
                }
                add(event(AGENT, "model", Part.fromText(text(10 + random.nextInt(200)))));
            } else if (kind < 8) {
                // an approval: the gate's result, then ADK's confirmation, answered at once or left for later
                String id = "c" + ids++;
                String confirmation = "k" + ids++;
                add(event(AGENT, "model", call(id, "exec")));
                add(event(AGENT, "user", response(id, "exec", Map.of("status", "awaiting_approval"))));
                add(event(AGENT, "user", call(confirmation, Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME)));
                if (random.nextBoolean()) {
                    add(event("user", "user", response(confirmation, Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
                            Map.of("confirmed", true))));
                    add(event(AGENT, "user", response(id, "exec", Map.of("output", text(300)))));
                    ask();
                    add(event(AGENT, "model", Part.fromText(text(50))));
                } else {
                    pending.add(new String[] {confirmation, id});
                }
            } else if (kind < 9) {
                // an error ends the turn: stored without content, as the engine stores it
                add(Event.builder().id(Event.generateEventId()).invocationId("i").author(AGENT)
                        .errorCode(new FinishReason("model_error")).errorMessage("failed")
                        .actions(EventActions.builder().build()).timestamp(clock++).build());
            } else {
                // a crash mid-tool: the call is stored, its result never is (the next turn follows it)
                add(event(AGENT, "model", call("c" + ids++, "exec"), call("c" + ids++, "read_file")));
            }
        }

        /** What the model would be sent now: checked. */
        private void ask() {
            totals.requests++;
            List<String> problems = CompactedHistory.problems(CompactedHistory.forModel(events));
            if (!problems.isEmpty()) {
                if (totals.malformed == 0) {
                    totals.firstProblem = problems + " in " + events.stream().map(Event::toJson).toList();
                }
                totals.malformed++;
            }
        }

        /** After a turn: folds the oldest part when the next request's history is past 0.7 of the budget. */
        private void compactIfPast() {
            List<Event> history = CompactedHistory.forModel(events);
            if (tokens(history) <= 0.7 * budget) {
                return;
            }
            List<Event> unfolded = CompactedHistory.closeOrphans(CompactedHistory.unfolded(events));
            totals.orphans += unfolded.size() - CompactedHistory.unfolded(events).size();
            OptionalInt end = CompactedHistory.foldEnd(unfolded, keep);
            if (end.isEmpty()) {
                return;
            }
            List<Event> folded = unfolded.subList(0, end.getAsInt());
            long previousStart = CompactedHistory.newest(events).map(c -> c.startTimestamp()).orElse(Long.MAX_VALUE);
            String previous = CompactedHistory.newest(events).map(c -> CompactedHistoryTest.text(
                    CompactedHistory.summaryEvent(c))).orElse("");
            String summary = (previous + " " + folded.stream().map(CompactedHistoryTest::text)
                    .filter(t -> t.startsWith("turn ")).map(t -> t.substring(0, Math.min(24, t.length())))
                    .reduce("", (a, b) -> a + "; " + b));
            summary = summary.substring(Math.max(0, summary.length() - budget)); // capped: a quarter of the budget
            add(CompactedHistory.compaction(folded, previousStart, summary, AGENT, clock++));
            totals.compactions++;
            List<Event> after = CompactedHistory.unfolded(events);
            for (String[] waiting : pending) {
                boolean kept = after.stream().flatMap(e -> e.functionCalls().stream())
                        .anyMatch(c -> c.id().orElse("").equals(waiting[0]));
                if (!kept) {
                    totals.foldedPending++;
                }
            }
        }

        private int tokens(List<Event> history) {
            int sum = 0;
            for (Event event : history) {
                sum += tokens.computeIfAbsent(event, e -> {
                    int t = 4 + TokenEstimator.estimate(CompactedHistoryTest.text(e));
                    for (FunctionCall c : e.functionCalls()) {
                        t += TokenEstimator.estimate(String.valueOf(c.args().orElse(Map.of())));
                    }
                    for (FunctionResponse r : e.functionResponses()) {
                        t += TokenEstimator.estimate(String.valueOf(r.response().orElse(Map.of())));
                    }
                    return t;
                });
            }
            return sum;
        }

        private void add(Event event) {
            events.add(event);
        }

        private Event event(String author, String role, Part... parts) {
            // several events may share a millisecond, as they do when a tool answers at once
            long at = random.nextInt(4) == 0 ? clock : ++clock;
            return Event.builder().id("e" + ids++).invocationId("i").author(author)
                    .content(Content.builder().role(role).parts(List.of(parts)).build())
                    .actions(EventActions.builder().build()).timestamp(at).build();
        }

        private String text(int chars) {
            StringBuilder text = new StringBuilder(chars);
            while (text.length() < chars) {
                text.append((char) ('a' + random.nextInt(26)));
                if (random.nextInt(6) == 0) {
                    text.append(' ');
                }
            }
            return text.toString();
        }

        private static Part call(String id, String name) {
            return Part.builder().functionCall(FunctionCall.builder().id(id).name(name).args(Map.of("command", "ls"))
                    .build()).build();
        }

        private static Part response(String id, String name, Map<String, Object> result) {
            return Part.builder().functionResponse(FunctionResponse.builder().id(id).name(name).response(result).build())
                    .build();
        }
    }
}
