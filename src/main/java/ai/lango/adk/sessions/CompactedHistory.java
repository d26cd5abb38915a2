package ai.lango.adk.sessions;

import ai.lango.session.Roles;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.events.EventCompaction;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A session's history with its older part folded into a summary, as pure functions of its events (oldest first):
 * where a fold may end, how a call whose result a crash lost is closed, and what the model is sent. A compaction is
 * an ADK event carrying {@code actions.compaction} (the timestamps of the first and last event it covers and the
 * summary); the events it covers stay stored, and the model reads the newest compaction's summary and the events
 * after its range instead.
 *
 * <p>A fold ends only where the history is self-contained: every call before the end has its result before it,
 * no confirmation before it waits for a person, the next event opens a turn with the user's words (so the model's
 * request still opens with the user), its timestamp is later than the last folded one (a range is told by
 * timestamps), and the newest {@code keepRecentTurns} turns (at least one: the running or resumable turn) stay whole.
 */
public final class CompactedHistory {

    /** What a call whose result was lost answers, so that it neither orphans the request nor blocks a fold. */
    static final String ORPHAN_ERROR = "interrupted: the result of this call was lost (the server stopped while it ran)";
    /** How the summary is introduced to the model, as the request's first user message. */
    static final String SUMMARY_HEADER = "Summary of the earlier conversation (older messages were folded into it):\n";

    private CompactedHistory() {
    }

    /** Whether the event is a compaction (written by the server only). */
    public static boolean isCompaction(Event event) {
        return event.actions() != null && event.actions().compaction().isPresent();
    }

    /** The newest compaction among the events (by its range's end, then by position), if any. */
    public static Optional<EventCompaction> newest(List<Event> events) {
        EventCompaction newest = null;
        for (Event event : events) {
            if (isCompaction(event)) {
                EventCompaction c = event.actions().compaction().get();
                if (newest == null || c.endTimestamp() >= newest.endTimestamp()) {
                    newest = c;
                }
            }
        }
        return Optional.ofNullable(newest);
    }

    /** The events not yet folded: after the newest compaction's range, compactions themselves left out. */
    public static List<Event> unfolded(List<Event> events) {
        long end = newest(events).map(EventCompaction::endTimestamp).orElse(Long.MIN_VALUE);
        List<Event> after = new ArrayList<>();
        for (Event event : events) {
            if (!isCompaction(event) && event.timestamp() > end) {
                after.add(event);
            }
        }
        return after;
    }

    /**
     * The history the model is sent: the newest compaction's summary as a user message, then the unfolded events,
     * each orphaned call closed. Without a compaction, the events themselves (orphans closed).
     */
    public static List<Event> forModel(List<Event> events) {
        Optional<EventCompaction> compaction = newest(events);
        List<Event> after = closeOrphans(unfolded(events));
        if (compaction.isEmpty()) {
            return after;
        }
        List<Event> history = new ArrayList<>(after.size() + 1);
        history.add(summaryEvent(compaction.get()));
        history.addAll(after);
        return history;
    }

    /** The summary as the user message that opens the model's request. */
    static Event summaryEvent(EventCompaction compaction) {
        String text = summaryText(compaction);
        return Event.builder().id("compaction-" + compaction.endTimestamp()).invocationId("").author(Roles.USER)
                .content(Content.fromParts(Part.fromText(SUMMARY_HEADER + text)))
                .actions(EventActions.builder().build()).timestamp(compaction.startTimestamp()).build();
    }

    /** The summary's text. */
    public static String summaryText(EventCompaction compaction) {
        return compaction.compactedContent().parts().orElse(List.of()).stream()
                .map(p -> p.text().orElse("")).reduce("", String::concat);
    }

    /**
     * The events with each orphaned call answered by a synthetic error right after the event that made it: a call
     * without a result in a turn that a later turn followed (the newest turn's calls are its own, running or
     * resumable). A confirmation waiting for a person is not an orphan.
     */
    public static List<Event> closeOrphans(List<Event> events) {
        Set<String> answered = new HashSet<>();
        for (Event event : events) {
            for (FunctionResponse response : event.functionResponses()) {
                response.id().ifPresent(answered::add);
            }
        }
        int lastTurn = lastTurnStart(events);
        List<Event> closed = null;
        for (int i = 0; i < events.size(); i++) {
            Event event = events.get(i);
            List<FunctionCall> orphans = new ArrayList<>();
            if (i < lastTurn) {
                for (FunctionCall call : event.functionCalls()) {
                    if (!isConfirmation(call) && call.id().filter(answered::contains).isEmpty()) {
                        orphans.add(call);
                    }
                }
            }
            if (!orphans.isEmpty() && closed == null) {
                closed = new ArrayList<>(events.subList(0, i));
            }
            if (closed != null) {
                closed.add(event);
                if (!orphans.isEmpty()) {
                    closed.add(orphanResults(event, orphans));
                }
            }
        }
        return closed == null ? events : closed;
    }

    private static Event orphanResults(Event call, List<FunctionCall> orphans) {
        List<Part> parts = orphans.stream().map(c -> Part.builder().functionResponse(FunctionResponse.builder()
                .id(c.id().orElse("")).name(c.name().orElse("")).response(Map.of("error", ORPHAN_ERROR)).build()).build())
                .toList();
        return Event.builder().id(call.id() + "-closed").invocationId(call.invocationId()).author(call.author())
                .content(Content.builder().role(Roles.USER).parts(parts).build()).actions(EventActions.builder().build())
                .timestamp(call.timestamp()).build();
    }

    /**
     * How many of the unfolded events (orphans closed) a fold may cover: the largest self-contained prefix that keeps
     * the newest {@code keepRecentTurns} turns (at least one) whole; empty when there is none worth folding.
     */
    public static OptionalInt foldEnd(List<Event> unfolded, int keepRecentTurns) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < unfolded.size(); i++) {
            if (opensTurn(unfolded.get(i))) {
                starts.add(i);
            }
        }
        int keep = Math.max(1, keepRecentTurns);
        if (starts.size() <= keep) {
            return OptionalInt.empty();
        }
        int latest = starts.get(starts.size() - keep); // the fold ends at or before the oldest turn kept whole
        Map<String, Integer> openCalls = new LinkedHashMap<>();
        Set<Integer> boundaries = new HashSet<>(starts);
        int best = -1;
        for (int i = 0; i <= latest; i++) {
            if (i > 0 && boundaries.contains(i) && openCalls.isEmpty()
                    && unfolded.get(i).timestamp() > unfolded.get(i - 1).timestamp()) {
                best = i;
            }
            if (i == latest) {
                break;
            }
            Event event = unfolded.get(i);
            for (FunctionCall call : event.functionCalls()) {
                openCalls.put(call.id().orElse(call.name().orElse("")), i);
            }
            for (FunctionResponse response : event.functionResponses()) {
                openCalls.remove(response.id().orElse(response.name().orElse("")));
            }
        }
        return best > 0 ? OptionalInt.of(best) : OptionalInt.empty();
    }

    /** A compaction covering {@code folded} (the unfolded events a fold took), with the summary written for them. */
    public static Event compaction(List<Event> folded, long previousStart, String summary, String author, long now) {
        long start = Math.min(previousStart, folded.get(0).timestamp());
        long end = folded.get(folded.size() - 1).timestamp();
        EventCompaction compaction = EventCompaction.builder().startTimestamp(start).endTimestamp(end)
                .compactedContent(Content.builder().role(Roles.MODEL).parts(List.of(Part.fromText(summary))).build())
                .build();
        return Event.builder().id(Event.generateEventId()).invocationId("").author(author)
                .actions(EventActions.builder().compaction(compaction).build()).timestamp(now).build();
    }

    /** Whether the event opens a turn: the user's own words, not a tool's result or an answer to a confirmation. */
    static boolean opensTurn(Event event) {
        if (!Roles.USER.equals(event.author()) || isCompaction(event)) {
            return false;
        }
        List<Part> parts = event.content().flatMap(Content::parts).orElse(List.of());
        return !parts.isEmpty() && parts.stream().allMatch(p -> p.text().isPresent())
                && event.content().flatMap(Content::role).map(Roles.USER::equals).orElse(true);
    }

    private static int lastTurnStart(List<Event> events) {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (opensTurn(events.get(i))) {
                return i;
            }
        }
        return -1;
    }

    static boolean isConfirmation(FunctionCall call) {
        return call.name().filter(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME::equals).isPresent();
    }

    /**
     * What is wrong with a model's history (empty: nothing): it must open with the user's words, every result must
     * follow its call and every call must have its result, but for the calls of the newest turn that the model is
     * still waiting on. A confirmation (ADK's own call to the person, which ADK keeps out of the model's request)
     * is left out, but one waiting for a person must not have been folded: see {@link #foldEnd}.
     */
    public static List<String> problems(List<Event> history) {
        List<String> problems = new ArrayList<>();
        Event first = history.stream().filter(e -> e.content().flatMap(Content::parts).filter(p -> !p.isEmpty())
                .isPresent()).findFirst().orElse(null);
        if (first == null) {
            return problems;
        }
        if (!opensTurn(first)) {
            problems.add("opens with " + first.author() + ", not the user's words");
        }
        Set<String> called = new HashSet<>();
        Map<String, Integer> open = new LinkedHashMap<>();
        int lastTurn = lastTurnStart(history);
        for (int i = 0; i < history.size(); i++) {
            Event event = history.get(i);
            for (FunctionResponse response : event.functionResponses()) {
                if (response.name().filter(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME::equals).isPresent()) {
                    continue;
                }
                String id = response.id().orElse("");
                if (!called.contains(id)) {
                    problems.add("result " + id + " without its call");
                }
                open.remove(id);
            }
            for (FunctionCall call : event.functionCalls()) {
                if (!isConfirmation(call)) {
                    called.add(call.id().orElse(""));
                    open.put(call.id().orElse(""), i);
                }
            }
        }
        open.forEach((id, at) -> {
            if (at < lastTurn) {
                problems.add("call " + id + " without its result");
            }
        });
        return problems;
    }
}
