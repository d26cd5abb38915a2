package ai.lango.adk.runner;

import ai.lango.adk.agents.DelegationGuard;
import ai.lango.adk.tools.TurnContexts;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnContext;
import ai.lango.turn.TurnAbortedException;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import com.google.adk.agents.BaseAgent;
import com.google.adk.events.Event;
import com.google.adk.flows.llmflows.Functions;
import com.google.adk.runner.Runner;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs user turns on ADK's Runner with Lango's rules: one turn at a time per session, the turn
 * limit, text collected without duplication, one retry with a correction after a transfer to an
 * agent that does not exist, and one retry with a learned fix when a confident one exists.
 */
public final class LangoRunner {

    private static final java.util.logging.Logger LOG = ai.lango.masking.MaskedLogs.of(LangoRunner.class);

    /** Settings of a runner: the lango.agent.* keys. */
    public record Limits(int maxTurns, boolean errorCorrection, Duration requestTimeout) {
    }

    private final Runners runners;
    private final List<String> subAgents;
    private final Limits limits;
    private final LearnedFixes fixes;
    private final SessionTurns turns = new SessionTurns();
    private final ServerTurns servers;
    private final CutTurns cut;
    private final TurnEnds ends;
    /** The run of each session's turn running on this server now, by session scope: what chat.abort stops. */
    private final java.util.Map<String, TurnDeadline> running = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What a turn cut off by its deadline leaves in its session, written while the turn still holds
     * the session (so no next turn can come between): a record for each tool call left without a
     * result, and the error.
     */
    @FunctionalInterface
    public interface CutTurns {
        CutTurns NONE = (userId, sessionId, reason, said) -> { };

        /** @param said what the response streaming when the turn was cut had written (kept, not lost with the stream) */
        void cut(String userId, String sessionId, String reason, Optional<Said> said);
    }

    /** Text an agent wrote. */
    public record Said(String author, String text) {
    }

    /**
     * How each run of a turn ended, told while the turn still holds its session (so no other server takes it over as
     * a turn left running in between): done, waiting for a person's answer, or failed with why.
     */
    @FunctionalInterface
    public interface TurnEnds {
        TurnEnds NONE = (turn, ending, error) -> { };

        enum Ending { DONE, WAITING, FAILED }

        void ended(TurnContext turn, Ending ending, String error);
    }

    /**
     * ADK's runner for one run of a turn: its agents bound to the turn (the model masks for its caller, meters for
     * its user and stops with it), its session writes the turn's (its usage committed with its answer), and how to
     * wait for the run's user message to be stored.
     */
    @FunctionalInterface
    public interface Runners {
        Run runFor(TurnContext turn);
    }

    /** One run's ADK runner, and the wait for its user message's commit (nothing is told of the run before it). */
    public record Run(Runner runner, Runnable awaitInput) {
    }

    /** One ADK runner for every turn, whose writes commit at once (tests, benchmarks). */
    public static Runners always(Runner runner) {
        return turn -> new Run(runner, () -> { });
    }

    /** As the server's runner is, without its other servers and cut turns: for tests. */
    public LangoRunner(Runner runner, BaseAgent root, Limits limits, LearnedFixes fixes) {
        this(always(runner), root.subAgents().stream().map(BaseAgent::name).toList(), limits, fixes, ServerTurns.NONE,
                CutTurns.NONE, TurnEnds.NONE);
    }

    public LangoRunner(Runner runner, BaseAgent root, Limits limits, LearnedFixes fixes, ServerTurns servers) {
        this(always(runner), root.subAgents().stream().map(BaseAgent::name).toList(), limits, fixes, servers, CutTurns.NONE,
                TurnEnds.NONE);
    }

    /** @param subAgents the names of the root's sub-agents (none for a single agent): what a hallucinated name is told to use */
    public LangoRunner(Runners runners, List<String> subAgents, Limits limits, LearnedFixes fixes, ServerTurns servers,
                       CutTurns cut, TurnEnds ends) {
        this.runners = runners;
        this.subAgents = List.copyOf(subAgents);
        this.limits = limits;
        this.fixes = fixes;
        this.servers = servers;
        this.cut = cut;
        this.ends = ends;
    }

    /** One run of {@code turn}'s events as they happen (partial chunks when {@code streaming}), under the turn limit. */
    private Flowable<Event> run(Run run, TurnContext turn, Content content, boolean streaming) {
        return TurnLimit.apply(run.runner().runAsync(turn.userId(), turn.sessionKey(), content,
                TurnContexts.runConfig(turn, streaming)), limits.maxTurns());
    }

    private static Content text(String message) {
        return Content.builder().role("user").parts(List.of(Part.fromText(message))).build();
    }

    /**
     * What a turn's user sends: the message, or answers to requests for approval as ADK's confirmation responses
     * (which resume the calls that asked), with any text after them.
     */
    static Content input(String message, List<TurnRequest.ApprovalAnswer> answers) {
        if (answers.isEmpty()) {
            return text(message);
        }
        List<Part> parts = new java.util.ArrayList<>();
        for (TurnRequest.ApprovalAnswer answer : answers) {
            parts.add(Part.builder().functionResponse(FunctionResponse.builder().name(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME)
                    .id(answer.confirmationId()).response(Map.of("confirmed", answer.approved())).build()).build());
        }
        if (message != null && !message.isBlank()) {
            parts.add(Part.fromText(message));
        }
        return Content.builder().role("user").parts(parts).build();
    }

    /**
     * Whether the run now waits for a person: the event answers the calls of a model response and
     * one of them asked for confirmation. The turn ends after it (ADK would otherwise call the model
     * again at once), and resumes when the answer comes.
     */
    static boolean awaitsApproval(Event event) {
        return !event.partial().orElse(false) && !event.functionResponses().isEmpty()
                && !event.actions().requestedToolConfirmations().isEmpty();
    }

    /** A turn of {@code userId} (whose credential does not administer) to its end: for tests. */
    public String runAndCollect(String userId, String sessionId, String message, boolean streaming, Consumer<Event> onEvent) {
        return runAndCollect(TurnContext.of(userId, sessionId, false).build(), message, List.of(), streaming, onEvent);
    }

    /**
     * Runs {@code turn} to its end and returns the answer's text — going on with {@code answers} to requests for
     * approval when given; {@code onEvent} sees every event as it happens. Turns on one session never
     * interleave: a second waits for the first, up to the request timeout.
     */
    public String runAndCollect(TurnContext turn, String message, List<TurnRequest.ApprovalAnswer> answers,
                                boolean streaming, Consumer<Event> onEvent) {
        String userId = turn.userId();
        boolean admin = turn.admin();
        String sessionId = turn.sessionKey();
        long started = System.nanoTime();
        long deadline = started + limits.requestTimeout().toNanos();
        // Session ids are their user's own: two users' sessions "default" are two sessions.
        String scope = turn.session().scope();
        try (SessionTurns.Held held = turns.acquire(scope, limits.requestTimeout())) {
            Duration left = limits.requestTimeout().minusNanos(System.nanoTime() - started);
            Runnable release = servers.acquire(scope, left.isNegative() ? Duration.ZERO : left)
                    .orElseThrow(() -> new TurnFailedException("session \"" + sessionId + "\" is busy: a turn on another"
                            + " server did not finish within " + limits.requestTimeout(), null));
            AtomicBoolean waits = new AtomicBoolean();
            AtomicReference<Optional<Said>> cutShort = new AtomicReference<>(Optional.empty());
            Consumer<Event> watched = event -> {
                if (awaitsApproval(event)) {
                    waits.set(true);
                }
                onEvent.accept(event);
            };
            try {
                String reply = collectWithRetries(turn, input(message, answers), streaming, watched, deadline, cutShort);
                ended(turn, waits.get() ? TurnEnds.Ending.WAITING : TurnEnds.Ending.DONE, null);
                return reply;
            } catch (TurnFailedException e) {
                if (e.getCause() instanceof java.util.concurrent.TimeoutException) {
                    cut.cut(userId, sessionId, e.getMessage() + " (" + limits.requestTimeout() + ")", cutShort.get());
                } else if (e.getCause() instanceof TurnAbortedException) {
                    cut.cut(userId, sessionId, e.getMessage(), cutShort.get());
                }
                ended(turn, TurnEnds.Ending.FAILED, e.getMessage());
                throw e;
            } finally {
                release.run();
            }
        } catch (SessionTurns.BusyException e) {
            throw new TurnFailedException("session \"" + sessionId + "\" is busy: another turn did not finish within "
                    + limits.requestTimeout(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TurnFailedException("interrupted while waiting for session \"" + sessionId + "\"", e);
        }
    }

    /** Tells how the run ended; a failure to record it leaves the turn to be resumed, and never fails the turn. */
    private void ended(TurnContext turn, TurnEnds.Ending ending, String error) {
        try {
            ends.ended(turn, ending, error);
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, "how a turn ended was not recorded", e);
        }
    }

    private String collectWithRetries(TurnContext turn, Content input, boolean streaming, Consumer<Event> onEvent,
                                      long deadline, AtomicReference<Optional<Said>> cutShort) {
        String userId = turn.userId();
        Outcome first = once(turn, input, streaming, onEvent, deadline);
        cutShort.set(first.unstored);
        if (first.error == null) {
            return first.text;
        }
        if (first.error instanceof java.util.concurrent.TimeoutException || first.error instanceof TurnAbortedException) {
            throw failure(first.error); // the turn's time is up, or its user stopped it: nothing is tried again
        }
        Optional<String> hallucinated = Corrections.hallucinatedAgent(first.error);
        if (hallucinated.isPresent()) {
            if (subAgents.isEmpty()) {
                throw failure(first.error);
            }
            return retry(turn, Corrections.unknownAgent(hallucinated.get(), subAgents), streaming, onEvent, deadline, cutShort);
        }
        if (limits.errorCorrection() && !(first.error instanceof TurnLimit.Exceeded)) {
            String error = message(first.error);
            Optional<LearnedFixes.Fix> fix = fixes.fixFor(userId, error)
                    .filter(f -> f.confidence() > Corrections.FIX_CONFIDENCE_THRESHOLD);
            if (fix.isPresent()) {
                // The retry's outcome is what the learning learns from: did the fix work?
                try {
                    String answer = retry(turn, Corrections.learnedFix(error, fix.get().fix()), streaming, onEvent, deadline, cutShort);
                    fixes.outcome(userId, turn.admin(), fix.get(), true);
                    return answer;
                } catch (TurnFailedException again) {
                    fixes.outcome(userId, turn.admin(), fix.get(), false);
                    throw again;
                }
            }
        }
        throw failure(first.error);
    }

    /** Exactly one retry: its error, if any, is the one the caller gets. */
    private String retry(TurnContext turn, String correction, boolean streaming, Consumer<Event> onEvent, long deadline,
                         AtomicReference<Optional<Said>> cutShort) {
        // its correction is a new message of the turn, stored as any other (also when the turn was resumed)
        Outcome second = once(turn.toBuilder().begins(TurnContext.Begins.CONTINUED).build(), text(correction), streaming,
                onEvent, deadline);
        cutShort.set(second.unstored);
        if (second.error != null) {
            throw failure(second.error);
        }
        return second.text;
    }

    private record Outcome(String text, Throwable error, Optional<Said> unstored) {
    }

    /**
     * One run. Each event goes to {@code onEvent} the moment it is emitted ({@code doOnNext}): the
     * model writes its chunks during the subscription, on this thread, so a blocking subscriber with
     * a queue (blockingSubscribe with callbacks) would see nothing until the model had finished.
     * Events before an error are never lost, as they would be with blocking iteration.
     */
    private Outcome once(TurnContext turn, Content input, boolean streaming, Consumer<Event> onEvent, long deadline) {
        TextCollector collector = new TextCollector();
        AtomicReference<Throwable> error = new AtomicReference<>();
        // The user's message commits while the model is called: nothing reaches onEvent before it has.
        Run run = runners.runFor(turn);
        AtomicBoolean inputStored = new AtomicBoolean();
        Runnable awaitInput = () -> {
            if (!inputStored.get()) {
                run.awaitInput().run();
            }
            inputStored.set(true);
        };
        // One deadline for the whole turn (Flowable.timeout would restart its clock at every chunk), which
        // stops the run where it is: the model's stream closed, a running tool interrupted.
        String scope = turn.session().scope();
        try (TurnDeadline ends = new TurnDeadline(turn.abort(), Duration.ofNanos(deadline - System.nanoTime()))) {
            running.put(scope, ends);
            run(run, turn, input, streaming)
                    .takeUntil(ends.reached())
                    .takeUntil(LangoRunner::awaitsApproval)
                    .doOnNext(event -> {
                        awaitInput.run();
                        collector.accept(event);
                        onEvent.accept(event);
                        refusedTransfer(event).ifPresent(error::set);
                    })
                    .doOnError(error::set)
                    .onErrorComplete()
                    .blockingSubscribe();
            if (ends.expired()) {
                error.set(new java.util.concurrent.TimeoutException()); // whatever the interrupt made of the run
            } else if (ends.stopped()) {
                error.set(new TurnAbortedException());
            }
        } finally {
            running.remove(scope);
        }
        try {
            awaitInput.run(); // a run that sent nothing still answers only once its question is stored
        } catch (RuntimeException notStored) {
            error.set(notStored);
        }
        return new Outcome(collector.text(), error.get(), collector.unstored());
    }

    /**
     * Stops the turn of {@code userId}'s session running on this server, where it waits (the model's
     * stream closed, a running tool stopped), as its deadline would; whether one was running.
     */
    public boolean stop(String userId, String sessionId) {
        TurnDeadline run = running.get(SessionRef.of(userId, sessionId).scope());
        if (run == null) {
            return false;
        }
        run.stop();
        return true;
    }

    /**
     * Runs {@code action} on {@code userId}'s session once no turn of it runs on this server (a stopped
     * one has written what it leaves), holding the session meanwhile so that none starts.
     */
    public void whileIdle(String userId, String sessionId, Runnable action) {
        String scope = SessionRef.of(userId, sessionId).scope();
        try (SessionTurns.Held held = turns.acquire(scope, limits.requestTimeout())) {
            action.run();
        } catch (SessionTurns.BusyException e) {
            throw new TurnFailedException("session \"" + sessionId + "\" is busy: its turn did not end within "
                    + limits.requestTimeout(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TurnFailedException("interrupted while waiting for session \"" + sessionId + "\"", e);
        }
    }

    /** A transfer the {@link DelegationGuard} refused because its target does not exist ends the run as ADK's error would. */
    private static Optional<Throwable> refusedTransfer(Event event) {
        if (event.partial().orElse(false)) {
            return Optional.empty(); // a streamed chunk carries text, never a tool's response
        }
        return event.functionResponses().stream()
                .filter(response -> response.name().filter(DelegationGuard.TRANSFER_TOOL::equals).isPresent())
                .map(response -> response.response().map(r -> r.get("error")).orElse(null))
                .filter(error -> error instanceof String text && text.startsWith(DelegationGuard.UNKNOWN_AGENT))
                .<Throwable>map(error -> new IllegalStateException((String) error))
                .findFirst();
    }

    private static TurnFailedException failure(Throwable error) {
        return error instanceof TurnFailedException turn ? turn : new TurnFailedException(message(error), error);
    }

    private static String message(Throwable error) {
        if (error instanceof TurnAbortedException) {
            return error.getMessage();
        }
        if (error instanceof java.util.concurrent.TimeoutException) {
            return "the turn did not finish within the request timeout";
        }
        return error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    }
}
