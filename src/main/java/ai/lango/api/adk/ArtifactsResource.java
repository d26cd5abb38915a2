package ai.lango.api.adk;

import ai.lango.adk.AdkArtifacts;
import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.access.BearerAuthFilter;
import ai.lango.config.LangoSettings;
import ai.lango.turn.Names;
import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * ADK's artifact routes, answered as ADK's server answers them: a session's artifact names, an
 * artifact's versions, one version (the latest without {@code ?version=}) as a part
 * ({@code {"inlineData":{"mimeType":…,"data":"<base64>"}}}, which ADK's dev UI shows), and deleting
 * every version. The path's user is the caller, as on the session routes ({@link BearerAuthFilter}
 * refuses anyone else); artifacts belong to the user's own session by that id, so another user's
 * never shows (404). A name that could not have been saved is a 400.
 */
// The whole prefix here, not on the methods: a request is matched to the root resource with the longest
// literal path first, and SessionsResource's "apps/{app}/users/{user}/sessions" would take these otherwise.
@Path(ArtifactsResource.ARTIFACTS)
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class ArtifactsResource {

    static final String ARTIFACTS = "apps/{app}/users/{user}/sessions/{session}/artifacts";

    @Inject
    AdkArtifacts artifacts;

    @Inject
    LangoSettings settings;

    @GET
    public Response names(@PathParam("app") String app, @PathParam("user") String user, @PathParam("session") String session) {
        return checked(app, user, session, () -> json(artifacts.names(user, session)));
    }

    @GET
    @Path("{name}")
    public Response latest(@PathParam("app") String app, @PathParam("user") String user, @PathParam("session") String session,
                           @PathParam("name") String name, @QueryParam("version") String version) {
        return part(app, user, session, name, version);
    }

    @GET
    @Path("{name}/versions")
    public Response versions(@PathParam("app") String app, @PathParam("user") String user, @PathParam("session") String session,
                             @PathParam("name") String name) {
        return checked(app, user, session, () -> json(artifacts.versions(user, session, name)));
    }

    @GET
    @Path("{name}/versions/{version}")
    public Response version(@PathParam("app") String app, @PathParam("user") String user, @PathParam("session") String session,
                            @PathParam("name") String name, @PathParam("version") String version) {
        return part(app, user, session, name, version);
    }

    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("app") String app, @PathParam("user") String user, @PathParam("session") String session,
                           @PathParam("name") String name) {
        return checked(app, user, session, () -> {
            artifacts.delete(user, session, name);
            return Response.noContent().build();
        });
    }

    private Response part(String app, String user, String session, String name, String version) {
        Optional<Integer> asked;
        try {
            asked = version == null || version.isBlank() ? Optional.empty() : Optional.of(Integer.parseInt(version.strip()));
        } catch (NumberFormatException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_version", "an artifact's version is a whole number (0, 1, …), not \""
                    + version + "\"");
        }
        return checked(app, user, session, () -> artifacts.part(user, session, name, asked)
                // Streamed, so the edge's secret masking passes it by: text artifacts are stored masked already,
                // and base64 is no text a secret could be read in (masking it could only break an image).
                .map(json -> Response.ok((StreamingOutput) out -> out.write(json.getBytes(StandardCharsets.UTF_8)),
                        MediaType.APPLICATION_JSON).build())
                .orElseGet(() -> ApiError.of(Response.Status.NOT_FOUND, "artifact_not_found", "no artifact \"" + name + "\""
                        + asked.map(v -> " version " + v).orElse("") + " in session \"" + session + "\"")));
    }

    /** The answer, unless the app is another, the ids could not have been stored or the name could not have been saved. */
    private Response checked(String app, String user, String session, Supplier<Response> answer) {
        if (!Names.APP.equals(app)) {
            return SessionsResource.unknownApp(app);
        }
        Optional<Response> invalid = ApiError.unstorableId("user", user, settings.database().kind())
                .or(() -> ApiError.unstorableId("session id", session, settings.database().kind()));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        try {
            return answer.get();
        } catch (IllegalArgumentException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_artifact_name", e.getMessage());
        }
    }

    private static Response json(Object value) {
        try {
            return Response.ok(ApiJson.MAPPER.writeValueAsString(value), MediaType.APPLICATION_JSON).build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an artifact list could not be written as JSON", e);
        }
    }
}
