package ai.lango.api.a2a;

import ai.lango.a2a.A2aException;
import ai.lango.a2a.A2aServer;
import ai.lango.a2a.JsonRpcError;
import ai.lango.adk.AgentService;
import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.api.TurnAdmission;
import ai.lango.api.TurnFailures;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.turn.SessionRef;
import ai.lango.turn.TurnEvent;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The A2A JSON-RPC endpoint, {@code POST /api/a2a}, when {@code lango.a2a.enabled} is true:
 * {@code message/send} runs one turn of the root agent in the session {@code a2a-<contextId>} and
 * answers with an agent message. JSON-RPC errors come with status 200, as A2A clients expect; the
 * bearer token guards it like the rest of /api.
 */
@Path(A2aResource.PATH)
@ApplicationScoped
public class A2aResource {

    static final String PATH = "a2a";
    /** The user the operator's A2A turns run as (without authentication, every caller's). */
    static final String USER_ID = Identity.OPERATOR_A2A_USER;
    /** A2A conversations are stored as sessions "a2a-&lt;contextId&gt;". */
    static final String SESSION_PREFIX = "a2a-";

    @Inject
    AgentService agent;

    @Inject
    LangoSettings settings;

    @Inject
    TurnAdmission admissions;

    @Inject
    Approvals approvals;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response call(String body, @Context HttpServletRequest request) {
        if (!settings.a2a().enabled()) {
            return disabled();
        }
        // A caller is a user like any other: its contexts are its own sessions. The operator's are the user "a2a"'s.
        Identity caller = Callers.of(request);
        String user = caller.operator() ? USER_ID : caller.userId();
        A2aServer.Agent turns = new A2aServer.Agent() {
            @Override
            public String answer(String contextId, String text) throws A2aException {
                return reply(contextId, text).text();
            }

            @Override
            public A2aServer.Reply reply(String contextId, String text) throws A2aException {
                return turn(caller, user, contextId, text);
            }
        };
        return Response.ok(new A2aServer(turns).handle(body), MediaType.APPLICATION_JSON).build();
    }

    /**
     * One turn in the caller's context. When it stops because a call waits for approval, the reply
     * is a task in state input-required saying what waits; the next message on the context answers
     * it ("approve" or "deny"; anything else is a new message, and the call does not run).
     */
    private A2aServer.Reply turn(Identity caller, String user, String contextId, String text) throws A2aException {
        String sessionKey = SESSION_PREFIX + contextId;
        TurnAdmission.Admission admission = admissions.admit(caller, user, sessionKey);
        if (!admission.admitted()) {
            throw new A2aException(admission.code() + ": " + admission.message());
        }
        try (Quotas.Permit permit = admission.permit()) {
            List<TurnEvent.ApprovalRequest> asked = new CopyOnWriteArrayList<>();
            Consumer<TurnEvent> listener = event -> {
                if (event instanceof TurnEvent.ApprovalRequest request) {
                    asked.add(request);
                }
            };
            Optional<Approval> waiting = approvals.pendingIn(SessionRef.of(user, sessionKey).scope()).stream().findFirst();
            Optional<Boolean> verdict = waiting.flatMap(w -> verdict(text));
            String answer;
            if (verdict.isPresent()) {
                Optional<Approvals.Outcome> outcome = approvals.decide(waiting.get().id(), user, verdict.get(), Approval.By.USER);
                if (outcome.isPresent() && outcome.get().decidedNow()) {
                    answer = agent.await(agent.resume(approvals.get(waiting.get().id()).orElseThrow(), caller.administersAs(user), false,
                            listener));
                } else {
                    answer = "The request for approval " + waiting.get().id() + " is "
                            + outcome.map(o -> o.decision().wire()).orElse("unknown") + " already; nothing ran.";
                }
            } else {
                answer = agent.await(agent.chat(new TurnRequest(user, caller.administersAs(user), sessionKey, text, false), listener));
            }
            if (!asked.isEmpty()) {
                return new A2aServer.Reply(waitingFor(asked, answer), true);
            }
            return new A2aServer.Reply(answer, false);
        } catch (TurnFailedException e) {
            if (TurnFailures.of(e).status() == Response.Status.NOT_FOUND) {
                // The context's session belongs to another user: as unusable as an invalid context id.
                throw new A2aException(JsonRpcError.INVALID_PARAMS, "params.message.contextId \"" + contextId
                        + "\" is not available; use another context id");
            }
            throw new A2aException(e.getMessage());
        }
    }

    /** "approve" or "deny" (and their plain synonyms), as the whole of a message; empty for anything else. */
    static Optional<Boolean> verdict(String text) {
        String word = text.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("[.!]+$", "");
        if (List.of("approve", "approved", "yes", "y", "ok").contains(word)) {
            return Optional.of(true);
        }
        if (List.of("deny", "denied", "no", "n", "reject").contains(word)) {
            return Optional.of(false);
        }
        return Optional.empty();
    }

    private static String waitingFor(List<TurnEvent.ApprovalRequest> asked, String answer) {
        StringBuilder text = new StringBuilder(answer == null || answer.isBlank() ? "" : answer + "\n\n");
        for (TurnEvent.ApprovalRequest request : asked) {
            text.append("Approval needed: ").append(request.tool()).append(' ')
                    .append(ApiJson.MAPPER.valueToTree(request.args()).toString()).append(" (").append(request.safety())
                    .append(", approval ").append(request.approvalId()).append(", until ").append(request.expiresAt())
                    .append(")").append(request.notes().isEmpty() ? "" : "; note " + ApiJson.MAPPER.valueToTree(request.notes()))
                    .append(". Reply \"approve\" or \"deny\".\n");
        }
        return text.toString().strip();
    }

    private static Response disabled() {
        return ApiError.of(Response.Status.NOT_FOUND, "a2a_disabled",
                "A2A is disabled on this server; set " + Keys.A2A_ENABLED + "=true to enable it");
    }
}
