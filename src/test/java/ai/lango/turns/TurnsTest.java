package ai.lango.turns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.TurnEngine;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.tool.Safety;
import ai.lango.turn.TurnContext;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The use cases of a turn, tested once below the edges: start, answer, expire. */
class TurnsTest {

    /** What the turns asked the engine to run, with their context. */
    private record Ran(TurnContext turn, String message, Optional<TurnRequest.ApprovalAnswer> answer) {
    }

    private final List<Ran> ran = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private final Map<String, Approval> requests = new HashMap<>();
    private boolean refuse;

    private static Approval pending(String id, String user, String session) {
        return new Approval(id, user, session, "call-" + id, Optional.of("conf-" + id), "lango-agent", "exec", "{}",
                Safety.DANGEROUS, Approval.Decision.PENDING, Optional.empty(), false, Instant.now(), Instant.now().plusSeconds(30),
                Optional.empty(), "{}");
    }

    private Turns turns(boolean authenticates) {
        Turns turns = new Turns();
        turns.engine = new TurnEngine() {
            @Override
            public CompletableFuture<String> run(TurnContext turn, String message, Optional<TurnRequest.ApprovalAnswer> answer,
                                                 boolean streaming, Consumer<TurnEvent> listener) {
                log.add("run");
                ran.add(new Ran(turn, message, answer));
                return CompletableFuture.completedFuture("ok");
            }
        };
        turns.admissions = new TurnAdmission() {
            @Override
            public Quotas.Permit admit(Identity caller, String userId, String sessionKey) {
                log.add("admit");
                if (refuse) {
                    throw new TurnRefused(429, "budget_exceeded", "the day's tokens are spent");
                }
                return () -> log.add("permit closed");
            }
        };
        turns.approvals = new Approvals() {
            @Override
            public Optional<Approval> get(String id) {
                return Optional.ofNullable(requests.get(id));
            }

            @Override
            public Optional<Outcome> decide(String id, String userId, boolean approved, Approval.By by) {
                log.add("decide " + id + " " + approved);
                Approval asked = requests.get(id);
                Approval.Decision decision = approved ? Approval.Decision.APPROVED : Approval.Decision.DENIED;
                requests.put(id, new Approval(asked.id(), asked.userId(), asked.sessionKey(), asked.callId(), asked.confirmationId(),
                        asked.agent(), asked.tool(), asked.args(), asked.safety(), decision, Optional.of(by), false, asked.createdAt(),
                        asked.expiresAt(), Optional.of(Instant.now()), asked.notes()));
                return Optional.of(new Outcome(decision, true));
            }

            @Override
            public Map<Approval, Approval.Decision> supersede(String sessionScope) {
                return requests.values().stream().filter(a -> a.decision() == Approval.Decision.PENDING)
                        .collect(java.util.stream.Collectors.toMap(a -> a, a -> Approval.Decision.SUPERSEDED));
            }

            @Override
            public List<Approval> expireDue() {
                List<Approval> expired = requests.values().stream().filter(a -> a.id().startsWith("late")).toList();
                expired.forEach(a -> requests.remove(a.id()));
                return expired;
            }
        };
        turns.credentials = new Credentials() {
            @Override
            public boolean required() {
                return authenticates;
            }
        };
        turns.ledger = new ai.lango.usage.UsageLedger();
        return turns;
    }

    @Test
    void anAnswerIsLetInBeforeAnythingIsDecidedAndARefusedOneLeavesTheRequestWaiting() {
        requests.put("a1", pending("a1", "ann", "s"));
        Turns turns = turns(true);
        refuse = true;
        TurnRefused refused = assertThrows(TurnRefused.class,
                () -> turns.answer(Identity.user("ann", false), "a1", true, true, Optional.empty()));
        assertEquals("budget_exceeded", refused.code());
        assertEquals(List.of("admit"), log, "nothing decided, nothing run");
        assertEquals(Approval.Decision.PENDING, requests.get("a1").decision());

        refuse = false;
        log.clear();
        turns.answer(Identity.user("ann", false), "a1", true, true, Optional.empty()).join();
        assertEquals(List.of("admit", "decide a1 true", "run", "permit closed"), log);
    }

    @Test
    void aRequestIsAnsweredByItsOwnUserOnlyAndOnce() {
        requests.put("a2", pending("a2", "ann", "s"));
        Turns turns = turns(true);
        assertEquals(404, assertThrows(TurnRefused.class,
                () -> turns.answer(Identity.user("bob", true), "a2", true, false, Optional.empty())).status(),
                "an administrator does not decide another user's dangerous call");
        turns.answer(Identity.user("ann", false), "a2", false, false, Optional.empty()).join();
        assertEquals(409, assertThrows(TurnRefused.class,
                () -> turns.answer(Identity.user("ann", false), "a2", true, false, Optional.empty())).status(), "a replay changes nothing");
        assertEquals(1, ran.size());
    }

    @Test
    void theTurnAnAnswerContinuesRunsAsTheAnsweringCallerWithItsCredential() {
        requests.put("a3", pending("a3", "ann", "s"));
        requests.put("a4", pending("a4", "user", "t"));
        Turns turns = turns(true);
        turns.answer(Identity.jwt("ann", false), "a3", true, true, Optional.empty()).join();
        turns.answer(Identity.OPERATOR, "a4", true, true, Optional.empty()).join();

        TurnContext ann = ran.get(0).turn();
        assertEquals("ann", ann.userId());
        assertFalse(ann.admin(), "a user's continuation never runs as an administrator");
        assertEquals(TurnContext.Credential.JWT, ann.credential());
        assertEquals(Optional.of(new TurnRequest.ApprovalAnswer("conf-a3", true)), ran.get(0).answer());
        TurnContext operator = ran.get(1).turn();
        assertTrue(operator.admin(), "the operator's continuation in its own session administers");
        assertEquals(TurnContext.Credential.OPERATOR_TOKEN, operator.credential());
        assertFalse(ann.id().equals(operator.id()), "each turn its own");
    }

    @Test
    void aClaimRefusedByTheAskingEdgeDecidesNothing() {
        requests.put("a5", pending("a5", "ann", "s"));
        Turns turns = turns(true);
        Turns.Continuation taken = new Turns.Continuation() {
            @Override
            public boolean claim() {
                return false;
            }

            @Override
            public Turns.Listener listener() {
                return Turns.Listener.NONE;
            }
        };
        assertEquals(409, assertThrows(TurnRefused.class,
                () -> turns.answer(Identity.user("ann", false), "a5", true, false, Optional.of(taken))).status());
        assertEquals(List.of("admit", "permit closed"), log);
        assertEquals(Approval.Decision.PENDING, requests.get("a5").decision());
    }

    @Test
    void aNewMessageSupersedesWaitingRequestsAndTheModelIsToldBeforeTheUsersWords() {
        requests.put("a6", pending("a6", "ann", "s"));
        turns(false).start(Identity.OPERATOR, "ann", "s", "never mind", true, Turns.Listener.NONE).join();
        String sent = ran.get(0).message();
        assertTrue(sent.startsWith("[System: the call of exec that waited for approval a6 was superseded by this message; it did not"
                + " run.]\n"), sent);
        assertTrue(sent.endsWith("never mind"), sent);
        assertEquals(TurnContext.Credential.NONE, ran.get(0).turn().credential(), "nobody authenticates: the operator without a token");
    }

    @Test
    void anExpiredRequestContinuesItsTurnForItsOwnUserHeardByWhomTheAskingEdgeNamed() {
        requests.put("late-1", pending("late-1", "ann", "s"));
        Turns turns = turns(true);
        List<CompletableFuture<String>> heard = new ArrayList<>();
        turns.hearing("late-1", new Turns.Continuation() {
            @Override
            public Turns.Listener listener() {
                return Turns.Listener.NONE;
            }

            @Override
            public void continued(CompletableFuture<String> turn) {
                heard.add(turn);
            }
        });
        turns.expireDue();
        assertEquals(1, ran.size());
        TurnContext turn = ran.get(0).turn();
        assertEquals("ann", turn.userId());
        assertFalse(turn.admin());
        assertEquals(TurnContext.Credential.SERVER, turn.credential());
        assertEquals(1, heard.size(), "the socket that asked hears the turn go on");
        assertFalse(log.contains("admit"), "a timeout is not a turn anyone asked for: nothing to let in");
    }
}
