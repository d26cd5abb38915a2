package ai.lango.adk.sessions;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.prompt.Bounded;
import ai.lango.provider.Completion;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.session.Message;
import ai.lango.session.SessionLeases;
import ai.lango.session.SessionStore;
import ai.lango.session.TokenEstimator;
import ai.lango.turn.Names;
import ai.lango.turn.SessionRef;
import ai.lango.turn.AfterTurnWork;
import ai.lango.turn.TurnCompleted;
import com.google.adk.events.Event;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Folds a long session's oldest part into a summary, after a turn, off the turn's path: once the history the next
 * request carries passes {@code lango.agent.compaction.threshold} of the token budget, the range
 * {@link CompactedHistory#foldEnd} allows is summarised by the model (the previous summary folded in, the summary's
 * size capped) and stored as an ADK compaction event, under the session's lease; the events it covers stay stored.
 * At most one compaction per finished turn, only when what it folds is at least a quarter of the budget and the
 * summary is smaller than that: it never loops, and a session compacts at most once per quarter budget of new history. A failed summary changes nothing (the history is cut to the budget, as without compaction) and says so.
 */
@ApplicationScoped
public class HistoryCompactor {

    private static final Logger LOG = MaskedLogs.of(HistoryCompactor.class);

    /** What the summarizer is told. */
    static final String INSTRUCTION = """
            You compact a conversation between a user and an AI assistant so that the assistant can go on without the \
            older messages. Write a summary the assistant will read instead of them. Keep: the user's goals and \
            instructions (in the user's own words where short), decisions made, facts, names, numbers and code words \
            given, files and artifacts touched, tools' results that matter, and open items still to do. Fold the \
            previous summary in when there is one; drop small talk. Answer with the summary only.""";
    /** The most characters of one part (a text, a call's arguments, a result) the summarizer is shown. */
    static final int PART_CHARS = 2_000;
    /** The most characters the summarizer is shown in all. */
    static final int INPUT_CHARS = 200_000;
    /** How long a compaction waits for a session another server is running a turn of. */
    private static final Duration LEASE_WAIT = Duration.ofSeconds(5);

    @Inject
    LangoSettings settings;

    @Inject
    JpaSessionService sessions;

    @Inject
    SessionStore store;

    @Inject
    SessionLeases leases;

    /** Where the summarizer's calls are counted, as purpose {@code compaction}. */
    @Inject
    ai.lango.usage.UsageLedger ledger;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    /** Who writes a summary: the model, through the agent's provider (a test gives its own). */
    interface Summarizer {
        String summarize(SessionRef session, String instruction, String input);
    }

    Summarizer summarizer = this::askModel;

    private AfterTurnWork work;
    private volatile Provider provider;

    @PostConstruct
    void start() {
        work = new AfterTurnWork(1, threadFactory);
    }

    @PreDestroy
    void stop() {
        work.stop();
    }

    void afterTurn(@ObservesAsync TurnCompleted turn) {
        SessionRef key = turn.session();
        if (settings.agent().compaction().enabled() && !Names.isEvalSession(key.key())) {
            work.submit(key, this::compact);
        }
    }

    /** What one pass did. */
    enum Outcome { FITS, NOTHING_TO_FOLD, BUSY, NO_GAIN, FAILED, COMPACTED }

    /** Folds the session's oldest part when its next history is past the threshold. */
    Outcome compact(SessionRef key) {
        LangoSettings.Compaction config = settings.agent().compaction();
        int budget = sessions.tokenBudget();
        long before = tokens(sessions.modelEvents(key));
        if (before <= config.threshold() * budget) {
            return Outcome.FITS;
        }
        try {
            Optional<SessionLeases.Held> lease = leases.acquire(key.scope(), LEASE_WAIT);
            if (lease.isEmpty()) {
                return Outcome.BUSY; // a turn runs there; the pass after it tries again
            }
            try (SessionLeases.Held held = lease.get()) {
                return fold(key, config, budget, before);
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            return Outcome.BUSY;
        } catch (RuntimeException failed) {
            LOG.log(Level.WARNING, "compaction of a session failed; its history is cut to the token budget instead: "
                    + failed.getMessage(), failed);
            return Outcome.FAILED;
        }
    }

    private Outcome fold(SessionRef key, LangoSettings.Compaction config, int budget, long before) {
        List<Event> events = sessions.storedEvents(key);
        List<Event> unfolded = CompactedHistory.closeOrphans(CompactedHistory.unfolded(events));
        OptionalInt end = CompactedHistory.foldEnd(unfolded, config.keepRecentTurns());
        if (end.isEmpty()) {
            return Outcome.NOTHING_TO_FOLD;
        }
        List<Event> folded = unfolded.subList(0, end.getAsInt());
        Optional<com.google.adk.events.EventCompaction> previous = CompactedHistory.newest(events);
        long foldedTokens = tokens(folded) + previous.map(c -> (long) TokenEstimator.estimate(CompactedHistory.summaryText(c)))
                .orElse(0L);
        if (foldedTokens < budget / 4) {
            // too little to gain: folding it would only bring the next pass sooner (a quarter of the budget per pass
            // bounds how often one runs)
            return Outcome.NO_GAIN;
        }
        String summary = Bounded.text(summarizer.summarize(key, INSTRUCTION,
                transcript(previous.map(CompactedHistory::summaryText).orElse(""), folded)),
                Math.max(400, budget)); // about a quarter of the budget, in tokens
        if (TokenEstimator.estimate(summary) >= foldedTokens) {
            LOG.info(() -> "a compaction was not stored: its summary was no smaller than the " + folded.size()
                    + " events it would replace");
            return Outcome.NO_GAIN;
        }
        long previousStart = previous.map(com.google.adk.events.EventCompaction::startTimestamp).orElse(Long.MAX_VALUE);
        long now = Math.max(System.currentTimeMillis(), events.get(events.size() - 1).timestamp());
        sessions.appendCompaction(key, CompactedHistory.compaction(folded, previousStart, summary, sessions.rootAgentName(), now));
        long after = tokens(sessions.modelEvents(key));
        LOG.info(() -> "compacted " + folded.size() + " events of a session into a summary: its next history went from "
                + before + " to " + after + " tokens (estimated)");
        return Outcome.COMPACTED;
    }

    private String askModel(SessionRef key, String instruction, String input) {
        String model = settings.agent().compaction().model().or(() -> settings.model().name()).orElseThrow(() -> new IllegalStateException(
                "compaction has no model: set lango.agent.compaction.model or lango.model"));
        Provider chosen = provider();
        return Completion.complete(chosen, model, instruction, input,
                ai.lango.usage.AsideCalls.recordedIn(ledger, key.userId(), key.key(), "compaction", chosen.id(),
                        TokenEstimator::estimate));
    }

    /** What the summarizer is shown: the previous summary, then each folded event, every part bounded. */
    static String transcript(String previous, List<Event> folded) {
        StringBuilder text = new StringBuilder();
        if (!previous.isBlank()) {
            text.append("Previous summary:\n").append(previous).append("\n\n");
        }
        text.append("Messages to fold in:\n");
        for (Event event : folded) {
            for (Part part : event.content().flatMap(Content::parts).orElse(List.of())) {
                part.text().filter(t -> !t.isBlank()).ifPresent(t -> text.append(event.author()).append(": ")
                        .append(Bounded.text(t, PART_CHARS)).append('\n'));
                part.functionCall().ifPresent((FunctionCall c) -> text.append(event.author()).append(" called ")
                        .append(c.name().orElse("")).append(' ')
                        .append(Bounded.text(String.valueOf(c.args().orElse(java.util.Map.of())), PART_CHARS)).append('\n'));
                part.functionResponse().ifPresent((FunctionResponse r) -> text.append(r.name().orElse("")).append(" returned ")
                        .append(Bounded.text(String.valueOf(r.response().orElse(java.util.Map.of())), PART_CHARS))
                        .append('\n'));
            }
        }
        return Bounded.text(text.toString(), INPUT_CHARS);
    }

    /** The estimated tokens of a history, as the budget counts them. */
    static long tokens(List<Event> history) {
        long sum = 0;
        for (Event event : history) {
            Optional<Message> message = EventMessages.toMessage(event);
            if (message.isPresent()) {
                sum += TokenEstimator.messageTokens(message.get());
            }
        }
        return sum;
    }

    private Provider provider() {
        Provider current = provider;
        if (current == null) {
            LangoSettings.ModelProvider chosen = settings.model().provider().orElseThrow(() -> new IllegalStateException(
                    "compaction has no provider: set lango.provider"));
            current = ProviderCatalog.create(chosen.id(), chosen.baseUrl(), chosen.apiKey(), chosen.readTimeout());
            provider = current;
        }
        return current;
    }
}
