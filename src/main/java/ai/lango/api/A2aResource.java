package ai.lango.api;

import ai.lango.a2a.A2aException;
import ai.lango.a2a.A2aServer;
import ai.lango.a2a.JsonRpcError;
import ai.lango.adk.AgentService;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
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

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response call(String body, @Context HttpServletRequest request) {
        if (!settings.a2a().enabled()) {
            return disabled();
        }
        // A caller is a user like any other: its contexts are its own sessions. The operator's are the user "a2a"'s.
        Identity caller = Callers.of(request);
        String user = caller.operator() ? USER_ID : caller.userId();
        return Response.ok(new A2aServer((contextId, text) -> turn(caller, user, contextId, text)).handle(body),
                MediaType.APPLICATION_JSON).build();
    }

    private String turn(Identity caller, String user, String contextId, String text) throws A2aException {
        TurnAdmission.Admission admission = admissions.admit(caller, user, SESSION_PREFIX + contextId);
        if (!admission.admitted()) {
            throw new A2aException(admission.code() + ": " + admission.message());
        }
        try (Quotas.Permit permit = admission.permit()) {
            return agent.await(agent.chat(new TurnRequest(user, SESSION_PREFIX + contextId, text, false), event -> {
            }));
        } catch (TurnFailedException e) {
            if (TurnFailures.of(e).status() == Response.Status.NOT_FOUND) {
                // The context's session belongs to another user: as unusable as an invalid context id.
                throw new A2aException(JsonRpcError.INVALID_PARAMS, "params.message.contextId \"" + contextId
                        + "\" is not available; use another context id");
            }
            throw new A2aException(e.getMessage());
        }
    }

    private static Response disabled() {
        return ApiError.of(Response.Status.NOT_FOUND, "a2a_disabled",
                "A2A is disabled on this server; set " + Keys.A2A_ENABLED + "=true to enable it");
    }
}
