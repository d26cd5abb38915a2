package ai.lango.api.schedules;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.schedule.Schedule;
import ai.lango.schedule.Schedules;
import ai.lango.schedule.Timing;
import ai.lango.security.Identity;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code /api/schedules}: a user's scheduled turns. {@code POST} makes one ({"sessionKey", "message", "cron" | "every" |
 * "at", "zone"}) → 201 {"id", "next", …}; {@code GET} lists the caller's own (an administrator another user's with
 * {@code ?userId=}); {@code GET/PATCH/DELETE /{id}} reads, pauses or resumes ({"paused": true|false}) and deletes one.
 * Another user's schedule is "not found"; an invalid field is a 400 that names it.
 */
@Path("schedules")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class SchedulesResource {

    @Inject
    Schedules schedules;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body, @QueryParam("userId") String userId, @Context HttpServletRequest request) {
        return as(request, userId, whose -> {
            JsonNode given;
            try {
                given = parsed(body);
            } catch (JsonProcessingException e) {
                return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", ApiError.notJson(e));
            }
            if (!given.isObject()) {
                return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", "the body must be a JSON object");
            }
            for (String field : new String[] {"sessionKey", "message", "cron", "every", "at", "zone"}) {
                if (given.has(field) && !given.get(field).isTextual() && !given.get(field).isNull()) {
                    return invalid(field, "\"" + field + "\" must be text");
                }
            }
            try {
                Schedule made = schedules.create(whose, new Schedules.Request(text(given, "sessionKey"), text(given, "message"),
                        text(given, "cron"), text(given, "every"), text(given, "at"), text(given, "zone")));
                return Response.status(Response.Status.CREATED).type(MediaType.APPLICATION_JSON).entity(json(made).toString())
                        .build();
            } catch (Timing.InvalidSchedule e) {
                return invalid(e.field(), e.getMessage());
            } catch (Schedules.LimitReached e) {
                return ApiError.of(Response.Status.CONFLICT, "schedule_limit", e.getMessage());
            }
        });
    }

    @GET
    public Response list(@QueryParam("userId") String userId, @Context HttpServletRequest request) {
        return as(request, userId, whose -> {
            ObjectNode answer = ApiJson.MAPPER.createObjectNode();
            ArrayNode list = answer.putArray("schedules");
            schedules.of(whose).forEach(s -> list.add(json(s)));
            return ApiJson.ok(answer);
        });
    }

    @GET
    @Path("{id}")
    public Response get(@PathParam("id") String id, @QueryParam("userId") String userId, @Context HttpServletRequest request) {
        return as(request, userId, whose -> schedules.get(whose, id).map(s -> ApiJson.ok(json(s))).orElseGet(() -> notFound(id)));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response patch(@PathParam("id") String id, String body, @QueryParam("userId") String userId,
                          @Context HttpServletRequest request) {
        return as(request, userId, whose -> {
            JsonNode given;
            try {
                given = parsed(body);
            } catch (JsonProcessingException e) {
                return ApiError.of(Response.Status.BAD_REQUEST, "invalid_json", ApiError.notJson(e));
            }
            if (!given.path("paused").isBoolean()) {
                return invalid("paused", "\"paused\" (true or false) is required: what PATCH changes");
            }
            return schedules.pause(whose, id, given.get("paused").asBoolean()).map(s -> ApiJson.ok(json(s)))
                    .orElseGet(() -> notFound(id));
        });
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id, @QueryParam("userId") String userId, @Context HttpServletRequest request) {
        return as(request, userId, whose -> schedules.delete(whose, id) ? Response.noContent().build() : notFound(id));
    }

    /** The schedules of the caller, or of {@code userId} for an administrator; 404 while schedules are off. */
    private Response as(HttpServletRequest request, String userId, Function<String, Response> answer) {
        if (!schedules.enabled()) {
            return ApiError.of(Response.Status.NOT_FOUND, "schedules_disabled", "schedules are off (lango.schedules.enabled=false)");
        }
        Identity caller = Callers.of(request);
        if (userId == null || userId.isBlank() || userId.equals(caller.userId())) {
            return answer.apply(caller.userId());
        }
        if (!caller.admin()) {
            return ApiError.of(Response.Status.FORBIDDEN, "forbidden", "?userId= is for administrators: you see your own"
                    + " schedules (you are \"" + caller.userId() + "\")");
        }
        Optional<Response> invalidId = ApiError.invalidId("userId", userId);
        return invalidId.orElseGet(() -> answer.apply(userId));
    }

    private static String text(JsonNode given, String field) {
        JsonNode value = given.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Response invalid(String field, String message) {
        Response.ResponseBuilder response = Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON);
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        body.putObject("error").put("code", "invalid_" + field.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT))
                .put("message", message).put("field", field);
        return response.entity(body.toString()).build();
    }

    private static Response notFound(String id) {
        return ApiError.of(Response.Status.NOT_FOUND, "schedule_not_found", "there is no schedule " + id + " of yours");
    }

    /** A schedule as the API and the page show it. */
    static ObjectNode json(Schedule s) {
        ObjectNode out = ApiJson.MAPPER.createObjectNode();
        out.put("id", s.id()).put("userId", s.userId()).put("sessionKey", s.sessionKey()).put("message", s.message());
        out.put(s.kind(), s.spec()).put("zone", s.zone()).put("paused", s.paused());
        out.put("next", s.upcoming().map(Object::toString).orElse(null));
        out.put("lastFire", s.lastFire().map(Object::toString).orElse(null));
        out.put("lastResult", s.lastResult().orElse(null));
        out.put("created", s.created().toString());
        return out;
    }

    /** A request's body as JSON; none is an empty object. */
    private static JsonNode parsed(String body) throws JsonProcessingException {
        return ApiJson.MAPPER.readTree(body == null || body.isBlank() ? "{}" : body);
    }
}
