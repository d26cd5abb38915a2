package ai.lango.api.a2a;

import ai.lango.a2a.A2aServer;
import ai.lango.turns.A2aTasks;
import ai.lango.a2a.A2aVersion;
import ai.lango.a2a.TaskEvent;
import ai.lango.api.ApiError;
import ai.lango.api.Callers;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.masking.SecretMask;
import ai.lango.net.sse.SseWriter;
import ai.lango.security.Identity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The A2A JSON-RPC endpoint, {@code POST /api/a2a}, when {@code lango.a2a.enabled} is true: A2A 1.0 and
 * 0.3 on one path, each request answered in the version of its method. Sends start or continue tasks
 * ({@link A2aTasks}); the streaming methods answer with server-sent events, one JSON-RPC response per
 * event. JSON-RPC errors come with status 200, as A2A clients expect; the bearer credential guards it
 * like the rest of /api, and the caller's user owns its contexts and tasks.
 */
@Path(A2aResource.PATH)
@ApplicationScoped
public class A2aResource {

    static final String PATH = "a2a";
    /** The user the operator's A2A turns run as (without authentication, every caller's). */
    static final String USER_ID = Identity.OPERATOR_A2A_USER;
    /** A2A conversations are stored as sessions "a2a-&lt;contextId&gt;". */
    /** How long a stream waits for its task's next event before it writes a comment to keep the connection. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    @Inject
    LangoSettings settings;

    @Inject
    A2aTasks tasks;

    @POST
    public Response call(String body, @Context HttpServletRequest request, @Context HttpServletResponse servletResponse) {
        if (!settings.a2a().enabled()) {
            return ApiError.of(Response.Status.NOT_FOUND, "a2a_disabled",
                    "A2A is disabled on this server; set " + Keys.A2A_ENABLED + "=true to enable it");
        }
        // A caller is a user like any other: its contexts are its own sessions. The operator's are the user "a2a"'s.
        Identity caller = Callers.of(request);
        String user = caller.operator() ? USER_ID : caller.userId();
        A2aServer.Answer answer = new A2aServer(tasks.of(caller, user)).handle(body, request.getHeader(A2aVersion.HEADER));
        if (answer instanceof A2aServer.Answer.Json json) {
            return Response.ok(json.body(), MediaType.APPLICATION_JSON).build();
        }
        A2aServer.Answer.Stream stream = (A2aServer.Answer.Stream) answer;
        StreamingOutput events = out -> write(stream, out, servletResponse, caller.audience());
        return Response.ok(events, MediaType.SERVER_SENT_EVENTS).header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no").build();
    }

    /** Each event as one {@code data:} frame, as it happens, until the task stops or the caller leaves. */
    private static void write(A2aServer.Answer.Stream stream, OutputStream out, HttpServletResponse servletResponse,
                              ai.lango.masking.Audience reader) throws IOException {
        SseWriter frames = SseWriter.spaced(out);
        try (A2aServer.Subscription events = stream.events()) {
            boolean first = true;
            while (!events.ended()) {
                TaskEvent event = events.next(KEEP_ALIVE);
                if (event == null) {
                    frames.comment("waiting");
                } else {
                    frames.data(SecretMask.mask(stream.frame(event), reader));
                }
                if (first) {
                    servletResponse.flushBuffer();
                    first = false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException clientGone) {
            // The caller left: the task goes on to its end and is stored; SubscribeToTask re-attaches.
        }
    }
}
