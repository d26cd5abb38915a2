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
import ai.lango.telemetry.Telemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
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

    /** The {@code compaction} span's attributes: the history's estimated tokens before and after, what was folded. */
    static final AttributeKey<Long> TOKENS_BEFORE = AttributeKey.longKey("lango.compaction.tokens_before");
    static final AttributeKey<Long> TOKENS_AFTER = AttributeKey.longKey("lango.compaction.tokens_after");
    static final AttributeKey<Long> EVENTS_FOLDED = AttributeKey.longKey("lango.compaction.events_folded");
    static final AttributeKey<Boolean> SYNCHRONOUS = AttributeKey.booleanKey("lango.compaction.synchronous");

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
    enum Outcome { FITS, NOTHING_TO_FOLD, BUSY, NO_GAIN, FAILED, BACKING_OFF, COMPACTED }

    /** How long a session whose summary failed is not compacted, doubled at each failure in a row up to {@link #MAX_BACKOFF}. */
    static final Duration FIRST_BACKOFF = Duration.ofMinutes(1);
    static final Duration MAX_BACKOFF = Duration.ofHours(1);
    /** Sessions whose backoff is kept at most; beyond, all are forgotten (each may fail once more). */
    private static final int MAX_BACKOFFS = 10_000;

    /** A session whose summaries failed {@code failures} times in a row: not asked again before {@code until}. */
    private record Backoff(int failures, java.time.Instant until) {
    }

    private final java.util.concurrent.ConcurrentMap<SessionRef, Backoff> backoffs = new java.util.concurrent.ConcurrentHashMap<>();

    /** The time backoffs are measured by (a test's own). */
    java.time.Clock clock = java.time.Clock.systemUTC();

    private boolean backingOff(SessionRef key) {
        Backoff backoff = backoffs.get(key);
        return backoff != null && clock.instant().isBefore(backoff.until());
    }

    /** The passes folding now, by session: one per session at a time (the background one or a turn's). */
    private final java.util.concurrent.ConcurrentMap<SessionRef, java.util.concurrent.CompletableFuture<Outcome>> folding =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Folds the session's oldest part when its next history is past the threshold. */
    Outcome compact(SessionRef key) {
        LangoSettings.Compaction config = settings.agent().compaction();
        int budget = sessions.tokenBudget();
        long fits = (long) (config.threshold() * budget);
        if (nextRequest(key, fits) <= fits) {
            return Outcome.FITS;
        }
        if (backingOff(key)) {
            return Outcome.BACKING_OFF; // its summary failed a moment ago: not asked again every turn
        }
        try {
            Optional<SessionLeases.Held> lease = leases.acquire(key.scope(), LEASE_WAIT);
            if (lease.isEmpty()) {
                return Outcome.BUSY; // a turn runs there; the pass after it tries again
            }
            try (SessionLeases.Held held = lease.get()) {
                java.util.concurrent.CompletableFuture<Outcome> pass = new java.util.concurrent.CompletableFuture<>();
                if (folding.putIfAbsent(key, pass) != null) {
                    return Outcome.BUSY; // a turn's own pass folds it now
                }
                try {
                    // measured again in the lease: a turn's pass may have folded it meanwhile
                    long before = nextRequest(key, fits);
                    Outcome outcome = before <= fits ? Outcome.FITS
                            : foldOrFail(key, config, budget, before);
                    pass.complete(outcome);
                    return outcome;
                } finally {
                    pass.complete(Outcome.FAILED); // when an error left it open
                    folding.remove(key, pass);
                }
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            return Outcome.BUSY;
        }
    }

    /**
     * The synchronous pass, before a turn's model call whose history would not fit the budget (see {@link
     * JpaSessionService#turnSession}): folds what {@link CompactedHistory#foldEnd} allows, in the caller's lease (its
     * turn holds the session), waiting at most {@code lango.agent.compaction.wait} — for the background pass instead
     * when one folds the session already. Whether a compaction was stored in that time; one that takes longer is still
     * stored when it ends (the next request reads it), but this request is cut.
     */
    boolean compactNow(SessionRef key) {
        LangoSettings.Compaction config = settings.agent().compaction();
        if (!config.enabled() || config.turnWait().isZero() || Names.isEvalSession(key.key()) || backingOff(key)) {
            return false;
        }
        int budget = sessions.tokenBudget();
        java.util.concurrent.CompletableFuture<Outcome> mine = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<Outcome> pass = folding.putIfAbsent(key, mine);
        if (pass == null) {
            pass = mine;
            Runnable run = () -> {
                try {
                    mine.complete(foldOrFail(key, config, budget, -1));
                } finally {
                    mine.complete(Outcome.FAILED);
                    folding.remove(key, mine);
                }
            };
            (threadFactory == null ? new Thread(run, "lango-compaction") : threadFactory.newThread(run)).start();
        }
        try {
            return pass.get(config.turnWait().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS) == Outcome.COMPACTED;
        } catch (java.util.concurrent.TimeoutException late) {
            LOG.info(() -> "a session's compaction took longer than lango.agent.compaction.wait (" + config.turnWait()
                    + "); the turn goes on without it");
            return false;
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException failed) {
            return false; // foldOrFail said why
        }
    }

    /**
     * {@link #fold}, a failure logged and the session backed off: a WARNING at its first failure in a row, FINE after
     * (a summarizer that is down would otherwise say the same every turn of every long session).
     */
    private Outcome foldOrFail(SessionRef key, LangoSettings.Compaction config, int budget, long before) {
        try {
            Outcome outcome = fold(key, config, budget, before);
            backoffs.remove(key);
            return outcome;
        } catch (RuntimeException failed) {
            if (backoffs.size() >= MAX_BACKOFFS) {
                backoffs.clear();
            }
            Backoff backoff = backoffs.merge(key, new Backoff(1, clock.instant().plus(FIRST_BACKOFF)), (was, first) -> {
                Duration wait = FIRST_BACKOFF.multipliedBy(1L << Math.min(20, was.failures()));
                return new Backoff(was.failures() + 1, clock.instant().plus(wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait));
            });
            LOG.log(backoff.failures() == 1 ? Level.WARNING : Level.FINE, "compaction of a session failed ("
                    + backoff.failures() + " in a row; not tried again before " + backoff.until() + "); its history is cut"
                    + " to the token budget instead: " + failed.getMessage(), failed);
            return Outcome.FAILED;
        }
    }

    private Outcome fold(SessionRef key, LangoSettings.Compaction config, int budget, long before) {
        List<Event> events = sessions.currentEvents(key); // a retry's superseded events are not summarised
        List<Event> stored = CompactedHistory.unfolded(events);
        List<Event> unfolded = CompactedHistory.closeOrphans(stored);
        OptionalInt end = CompactedHistory.foldEnd(unfolded, config.keepRecentTurns());
        if (end.isEmpty()) {
            return Outcome.NOTHING_TO_FOLD;
        }
        List<Event> folded = unfolded.subList(0, end.getAsInt());
        Optional<com.google.adk.events.EventCompaction> previous = CompactedHistory.newest(events);
        long previousTokens = previous.map(c -> (long) TokenEstimator.estimate(CompactedHistory.summaryText(c))).orElse(0L);
        long foldedTokens = tokens(folded) + previousTokens;
        if (before >= 0 && foldedTokens < budget / 4) {
            // too little to gain: folding it would only bring the next pass sooner (a quarter of the budget per pass
            // bounds how often one runs); a turn's own pass (before < 0) folds what it can, once per request
            return Outcome.NO_GAIN;
        }
        long kept = tokens(unfolded) - tokens(folded);
        Span span = Telemetry.tracer().spanBuilder("compaction")
                .setAttribute(Telemetry.CONVERSATION, key.key())
                .setAttribute(SYNCHRONOUS, before < 0)
                .setAttribute(EVENTS_FOLDED, (long) folded.size())
                .setAttribute(TOKENS_BEFORE, foldedTokens + kept).startSpan();
        try (Scope traced = span.makeCurrent()) {
            String summary = Bounded.text(summarizer.summarize(key, INSTRUCTION,
                    transcript(previous.map(CompactedHistory::summaryText).orElse(""), folded)),
                    Math.max(400, budget)); // about a quarter of the budget, in tokens
            long summaryTokens = TokenEstimator.estimate(summary);
            if (summaryTokens >= foldedTokens) {
                LOG.info(() -> "a compaction was not stored: its summary was no smaller than the " + folded.size()
                        + " events it would replace");
                span.setAttribute(TOKENS_AFTER, foldedTokens + kept);
                return Outcome.NO_GAIN;
            }
            long previousStart = previous.map(com.google.adk.events.EventCompaction::startTimestamp).orElse(Long.MAX_VALUE);
            long now = Math.max(System.currentTimeMillis(), events.get(events.size() - 1).timestamp());
            storeClosings(key, stored, folded, java.time.Instant.ofEpochMilli(now));
            sessions.appendCompaction(key, CompactedHistory.compaction(folded, previousStart, summary,
                    sessions.rootAgentName(), now));
            span.setAttribute(TOKENS_AFTER, summaryTokens + kept);
            LOG.info(() -> "compacted " + folded.size() + " events of a session into a summary"
                    + (before < 0 ? " before a turn whose history did not fit the budget" : "") + ": its history went from "
                    + (foldedTokens + kept) + " to " + (summaryTokens + kept) + " tokens (estimated)");
            return Outcome.COMPACTED;
        } catch (RuntimeException failed) {
            span.setStatus(StatusCode.ERROR, ai.lango.masking.SecretMask.mask(String.valueOf(failed.getMessage())));
            throw failed;
        } finally {
            span.end();
        }
    }

    /**
     * Stores the synthetic error results {@link CompactedHistory#closeOrphans} gave the folded calls whose results a
     * crash lost, before the compaction that covers them: the summary was written from them, so the stored session says
     * what the model was told, and every call in it has its result. Each keeps its call's time, so it lies within the
     * compaction's range (the model never reads it again) and the page shows it with its call; the session's last
     * update is {@code now}, as the compaction's.
     */
    private void storeClosings(SessionRef key, List<Event> stored, List<Event> folded, java.time.Instant now) {
        java.util.Set<Event> original = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        original.addAll(stored);
        List<Event> closings = folded.stream().filter(e -> !original.contains(e)).toList();
        if (!closings.isEmpty()) {
            closings.forEach(closing -> EventMessages.toMessage(closing).ifPresent(message -> store.append(key, message,
                    ai.lango.session.StateDelta.NONE, now)));
            LOG.info(() -> closings.size() + " tool call(s) of a session whose result a crash lost were closed with an"
                    + " error result before being compacted");
        }
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

    /**
     * The size of the session's next request, in tokens, looked at no closer than telling whether it fits {@code fits}:
     * see {@link #nextRequestTokens}, with the latest reported agent call ({@link
     * ai.lango.usage.UsageLedger#latestReported}) and the time the newest compaction was stored.
     */
    long nextRequest(SessionRef key, long fits) {
        Optional<ai.lango.turn.ModelCall> reported = ledger == null ? Optional.empty()
                : ledger.latestReported(key.userId(), key.key());
        return nextRequestTokens(reported, fits, () -> store.newestCompaction(key).map(Message::timestamp),
                () -> tokens(sessions.modelEvents(key)));
    }

    /**
     * The size of the next request: what the provider reported the latest agent call's prompt to be, with that call's
     * answer (which the next request carries), when there is one made after the newest compaction; else (none
     * reported, or only before a compaction, which that compaction made stale) the estimate of the history. A reported
     * size within {@code fits} is taken without looking for a compaction (a compaction since only made the request
     * smaller): the check after every turn of a session far from its threshold reads nothing.
     */
    static long nextRequestTokens(Optional<ai.lango.turn.ModelCall> latest, long fits,
                                  java.util.function.Supplier<Optional<java.time.Instant>> compactedAt,
                                  java.util.function.LongSupplier estimate) {
        if (latest.isPresent()) {
            long reported = latest.get().inputTokens() + latest.get().outputTokens();
            if (reported <= fits || compactedAt.get().map(at -> latest.get().at().isAfter(at)).orElse(true)) {
                return reported;
            }
        }
        return estimate.getAsLong();
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
