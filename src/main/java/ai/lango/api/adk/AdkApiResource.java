package ai.lango.api.adk;

import ai.lango.turns.TurnRefused;
import ai.lango.turns.Turns;
import ai.lango.masking.Audience;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.api.TurnFailures;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.masking.SecretMask;
import ai.lango.net.sse.SseWriter;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.turn.Names;
import ai.lango.turn.TurnFailedException;
import ai.lango.turn.TurnRequest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The routes of ADK's API server that sit at its root, same paths and JSON (ADK's own mapper), so
 * ADK clients and ADK's dev UI work against Lango: {@code GET /api/list-apps}, {@code POST
 * /api/run} and {@code /api/run_sse}, and what the dev UI asks besides (the version, the agent
 * graph, the agent builder, traces). Sessions and artifacts: {@link SessionsResource}, {@link
 * ArtifactsResource}; evaluations: {@link ai.lango.api.eval.EvalResource}.
 */
@Path("/")
@ApplicationScoped
public class AdkApiResource {

    @Inject
    Turns turns;

    @Inject
    LangoSettings settings;

    @Inject
    Approvals approvals;

    @Inject
    Credentials credentials;

    @GET
    @Path("list-apps")
    @Produces(MediaType.APPLICATION_JSON)
    public String listApps() {
        return "[\"" + Names.APP + "\"]";
    }

    /** What the dev UI shows as the ADK version. */
    @GET
    @Path("version")
    @Produces(MediaType.APPLICATION_JSON)
    public String version() {
        return ApiJson.MAPPER.createObjectNode().put("version", turns.adkVersion()).put("language", "java")
                .put("language_version", System.getProperty("java.version")).toString();
    }

    /** The agent tree, for the dev UI's agent panel: names, descriptions, tools, sub-agents. */
    @GET
    @Path("dev/build_graph/{app}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response buildGraph(@PathParam("app") String app) {
        if (!Names.APP.equals(app)) {
            return SessionsResource.unknownApp(app);
        }
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        turns.agents().ifPresentOrElse(root -> body.set("root_agent", AgentGraphs.describe(root)), () -> body.putNull("root_agent"));
        return ApiJson.ok(body);
    }

    /**
     * The agent tree as Graphviz DOT for the dev UI's graph panel, which reads it two ways: the whole
     * tree ({@code dotSrc}) and one graph per agent path ({@code {"<path>": {"dotSrc": …}}}); the root's
     * is the whole tree, under its name and under "root_agent", the key the panel of a selected event
     * falls back to (without it that panel showed an empty, broken image). (An empty answer left the
     * panel loading forever.)
     */
    @GET
    @Path("dev/build_graph_image/{app}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response buildGraphImage(@PathParam("app") String app) {
        if (!Names.APP.equals(app)) {
            return SessionsResource.unknownApp(app);
        }
        String dot = AgentGraphs.dot(turns.agents());
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("dotSrc", dot);
        turns.agents().ifPresent(root -> body.putObject(root.name()).put("dotSrc", dot));
        body.putObject("root_agent").put("dotSrc", dot);
        return ApiJson.ok(body);
    }

    /** The agent builder's YAML: empty text, which the dev UI reads as "no builder for this app". */
    @GET
    @Path("builder/app/{app}")
    @Produces(MediaType.TEXT_PLAIN)
    public String builderApp(@PathParam("app") String app) {
        return "";
    }

    /** Span attributes of one event's model call; Lango keeps no traces. */
    @GET
    @Path("debug/trace/{eventId}")
    @Produces(MediaType.APPLICATION_JSON)
    public String eventTrace(@PathParam("eventId") String eventId) {
        return "{}";
    }

    @GET
    @Path("debug/trace/session/{sessionId}")
    @Produces(MediaType.APPLICATION_JSON)
    public String sessionTrace(@PathParam("sessionId") String sessionId) {
        return "[]";
    }

    /**
     * A parsed AgentRunRequest, or the error response to give instead; {@code answer} when its new
     * message answers a request for approval (ADK's {@code adk_request_confirmation} function response).
     */
    private record RunRequest(TurnRequest turn, Response error, Answer answer) {
        RunRequest(TurnRequest turn, Response error) {
            this(turn, error, null);
        }
    }

    /** The answer a new message carries: the id of ADK's confirmation call, and whether it is confirmed. */
    private record Answer(String confirmationId, boolean confirmed) {
    }

    /**
     * The run a body asks for, if the caller may run it: only as themselves, unless they administer;
     * and an answer to a request for approval only from that request's own user.
     */
    private RunRequest parse(String body, Identity caller) {
        RunRequest run = parse(body, caller::administersAs);
        if (run.error() != null) {
            return run;
        }
        Optional<Response> refused = Callers.refusedUnlessActsAs(caller, run.turn().userId());
        if (refused.isEmpty() && run.answer() != null) {
            refused = Callers.refusedUnlessAnswers(caller, credentials.required(), run.turn().userId());
        }
        return refused.map(AdkApiResource::failed).orElse(run);
    }

    private static RunRequest parse(String body, java.util.function.Predicate<String> administersAs) {
        JsonNode request;
        try {
            request = ApiJson.MAPPER.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            return failed(ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", ApiError.notJson(e)));
        }
        if (request == null || !request.isObject()) {
            return failed(ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "the body must be a JSON object"));
        }
        String appName = text(request, "appName");
        String sessionId = text(request, "sessionId");
        String userId = text(request, "userId");
        if (appName.isEmpty() || sessionId.isEmpty() || userId.isEmpty()) {
            return failed(ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "appName, userId and sessionId are required"));
        }
        if (!Names.APP.equals(appName)) {
            return failed(SessionsResource.unknownApp(appName));
        }
        Optional<Response> invalid = ApiError.invalidId("userId", userId).or(() -> ApiError.invalidId("sessionId", sessionId));
        if (invalid.isPresent()) {
            return failed(invalid.get());
        }
        StringBuilder message = new StringBuilder();
        Answer answer = null;
        for (JsonNode part : request.path("newMessage").path("parts")) {
            message.append(part.path("text").asText(""));
            JsonNode response = part.path("functionResponse");
            if (CONFIRMATION_CALL.equals(response.path("name").asText())) {
                JsonNode confirmed = confirmed(response.path("response"));
                if (!confirmed.isBoolean() || response.path("id").asText("").isEmpty()) {
                    return failed(ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "an "
                            + CONFIRMATION_CALL + " function response needs its call's id"
                            + " and {\"confirmed\": true|false}"));
                }
                answer = new Answer(response.path("id").asText(), confirmed.asBoolean());
            }
        }
        if (message.length() == 0 && answer == null) {
            return failed(ApiError.of(Response.Status.BAD_REQUEST, "invalid_request", "newMessage needs at least one text part"));
        }
        return new RunRequest(new TurnRequest(userId, administersAs.test(userId), sessionId, message.toString(),
                request.path("streaming").asBoolean(false)),
                null, answer);
    }

    /** {"confirmed": …}, or ADK's other form {"response": "{\"confirmed\": …}"}. */
    private static JsonNode confirmed(JsonNode response) {
        if (response.path("response").isTextual()) {
            try {
                return ApiJson.MAPPER.readTree(response.path("response").asText()).path("confirmed");
            } catch (JsonProcessingException e) {
                return ApiJson.MAPPER.missingNode();
            }
        }
        return response.path("confirmed");
    }

    /** The name of ADK's function call that asks for confirmation, and of its answer, as the ADK API carries them. */
    static final String CONFIRMATION_CALL = "adk_request_confirmation";

    /**
     * The run's turn, let in: a new message, or the turn that asked for approval, going on with the answer —
     * its events to {@code events}. Throws {@link TurnRefused} when it is not let in, the request for approval is
     * unknown in the session (404) or was decided already (409: a replayed or late answer changes nothing).
     */
    private CompletableFuture<String> start(Identity caller, RunRequest run, boolean streaming, Consumer<String> events) {
        TurnRequest turn = run.turn();
        Turns.Listener listener = Turns.Listener.adk(events).from("adk", null);
        if (run.answer() == null) {
            return turns.start(caller, turn.userId(), turn.sessionKey(), turn.message(), streaming, listener);
        }
        Approval asked = approvals.forConfirmation(turn.session().scope(), run.answer().confirmationId())
                .orElseThrow(() -> new TurnRefused(404, "approval_not_found", "no request for approval \""
                        + run.answer().confirmationId() + "\" in session \"" + turn.sessionKey() + "\""));
        return turns.answer(caller, asked.id(), run.answer().confirmed(), streaming, Optional.of(() -> listener));
    }

    /** A refusal as the ADK API answers it: the JSON error, with Retry-After when there is one. */
    private static Response refused(TurnRefused refused) {
        return ApiError.of(Response.Status.fromStatusCode(refused.status()), refused.code(), refused.getMessage(),
                refused.retryAfter());
    }

    private static RunRequest failed(Response error) {
        return new RunRequest(null, error);
    }

    /**
     * Runs one turn; answers with every event of the run (the user's own event not included). The
     * request is suspended while the turn runs on its own thread: no container thread waits for the
     * model, so many concurrent runs do not queue behind the few threads Liberty's executor starts with.
     */
    @POST
    @Path("run")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public void run(String body, @Context HttpServletRequest request, @Suspended AsyncResponse response) {
        Identity caller = Callers.of(request);
        RunRequest run = parse(body, caller);
        if (run.error() != null) {
            response.resume(run.error());
            return;
        }
        List<String> events = new ArrayList<>();
        CompletableFuture<String> turn;
        try {
            turn = start(caller, run, false, events::add);
        } catch (TurnRefused refusal) {
            response.resume(refused(refusal));
            return;
        }
        // The runner enforces the request timeout itself; this bound only guards against a stuck turn. (Not
        // AsyncResponse.setTimeout: RESTEasy left its task scheduled after the answer went, and it failed with
        // CWWKC1101E once the application had stopped.)
        turn.copy().orTimeout(2 * settings.agent().requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((answer, failure) -> {
                    if (failure == null) {
                        response.resume(Response.ok("[" + String.join(",", events) + "]", MediaType.APPLICATION_JSON).build());
                    } else if (failure instanceof TimeoutException) {
                        turn.cancel(true);
                        response.resume(turnFailed(new TurnFailedException("the turn did not finish within the request timeout",
                                failure)));
                    } else {
                        response.resume(turnFailed(failure));
                    }
                });
    }

    private static Response turnFailed(Throwable failure) {
        Throwable turnError = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return TurnFailures.of(turnError).response(turnError.getMessage());
    }

    /**
     * Runs one turn as a text/event-stream: one {@code data:{event}} frame per event as it happens
     * (partial text chunks when "streaming" is true), and a final {@code data:{"error":…}} frame
     * if the run fails once the stream has started.
     */
    @POST
    @Path("run_sse")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Response runSse(String body, @Context HttpServletRequest request, @Context HttpServletResponse servletResponse) {
        Identity caller = Callers.of(request);
        RunRequest run = parse(body, caller);
        if (run.error() != null) {
            return run.error();
        }
        // Let in (and an answer decided) before the stream opens, so that a refusal is an HTTP status; the turn's events
        // wait in a queue for the stream, so the turn never waits on a slow client.
        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        CompletableFuture<String> turn;
        try {
            turn = start(caller, run, run.turn().streaming(), frames::add);
        } catch (TurnRefused refusal) {
            return refused(refusal);
        }
        Audience reader = new Audience(run.turn().userId(), run.turn().admin());
        StreamingOutput stream = out -> streamTurn(turn, frames, reader, out, servletResponse);
        return Response.ok(stream, MediaType.SERVER_SENT_EVENTS).header("Cache-Control", "no-cache").build();
    }

    private void streamTurn(CompletableFuture<String> turn, BlockingQueue<String> frames, Audience reader, OutputStream out,
                            HttpServletResponse servletResponse) throws IOException {
        // The headers go now, with an SSE comment that clients (ADK's dev UI, EventSource) skip: the
        // client knows the run started while the model is still thinking. The entity stream's own
        // flush does not send the response's first bytes; the servlet response's does. Frames are
        // written as ADK's own server writes them, "data:" without a space.
        SseWriter events = SseWriter.unspaced(out);
        events.comment("run started");
        servletResponse.flushBuffer();
        // The runner enforces the request timeout itself; this bound only guards against a stuck turn.
        long deadline = System.nanoTime() + 2 * settings.agent().requestTimeout().toNanos();
        boolean clientGone = false;
        try {
            while (!(turn.isDone() && frames.isEmpty())) {
                String event = frames.poll(50, TimeUnit.MILLISECONDS);
                if (event != null && !clientGone) {
                    try {
                        events.data(SecretMask.mask(event, reader));
                    } catch (IOException e) {
                        // The client left: the turn still runs to its end and is stored whole, so the
                        // conversation stays consistent and the provider's stream is read and closed.
                        clientGone = true;
                    }
                }
                if (System.nanoTime() > deadline) {
                    turn.cancel(true);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (clientGone) {
            return;
        }
        try {
            turns.await(turn);
        } catch (TurnFailedException e) {
            ObjectNode error = ApiJson.MAPPER.createObjectNode().put("error", e.getMessage())
                    .put("code", TurnFailures.of(e).code());
            events.data(SecretMask.mask(error.toString(), reader));
        } catch (java.util.concurrent.CancellationException e) {
            ObjectNode error = ApiJson.MAPPER.createObjectNode().put("error", "the turn did not finish within the request timeout")
                    .put("code", "turn_failed");
            events.data(error.toString());
        }
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).asText("");
    }
}
