package ai.lango.api.chat;

import ai.lango.turns.Turns;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.config.LangoSettings;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.turn.Names;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Who the chat page acts as, and what it talks to: the caller's user (whose sessions, history and
 * artifacts the page reads, as /ws would name it), whether they administer, and the model in use —
 * or, with none, what to set (the environment variables the README uses). Without an accepted
 * credential (where one is needed) it says only that: {@code {"signedIn": false}}, a 200, so that a
 * page asking before its user signs in shows no error.
 */
@Path("me")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class MeResource {

    @Inject
    LangoSettings settings;

    @Inject
    Turns turns;

    @Inject
    Credentials credentials;

    @GET
    public Response me(@Context HttpServletRequest request, @Context jakarta.ws.rs.core.HttpHeaders headers) {
        if (credentials.required() && !Callers.authenticated(request)) {
            return ApiJson.ok(ApiJson.MAPPER.createObjectNode().put("signedIn", false)
                    .put("credentialRefused", headers.getHeaderString(jakarta.ws.rs.core.HttpHeaders.AUTHORIZATION) != null));
        }
        Identity caller = Callers.of(request);
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("signedIn", true)
                .put("userId", caller.operator() ? Names.DEFAULT_USER : caller.userId())
                .put("admin", caller.admin());
        ObjectNode model = body.putObject("model");
        settings.model().provider().ifPresentOrElse(provider -> model.put("provider", provider.id())
                        .put("name", settings.model().name().orElse(null)).put("ready", turns.agents().isPresent()),
                () -> model.putNull("provider").putNull("name").put("ready", false).put("missing", turns.unavailable().orElse("")));
        body.put("memory", settings.memory().enabled());
        return ApiJson.ok(body);
    }
}
