package ai.lango.api.admin;

import ai.lango.api.ApiJson;
import ai.lango.api.UsageReports;
import ai.lango.usage.UsageRows;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /api/admin/usage}: every user's model usage in a period ({@code ?userId=} for one,
 * {@code ?from=&to=} as /api/usage): totals, and by day, model, session, user, purpose and agent.
 */
@Path("admin/usage")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class AdminUsageResource {

    @Inject
    UsageRows rows;

    @GET
    public Response usage(@QueryParam("userId") String userId, @QueryParam("from") String from, @QueryParam("to") String to) {
        Object period = UsageReports.period(from, to);
        if (period instanceof Response refused) {
            return refused;
        }
        return ApiJson.ok(UsageReports.report(rows, Optional.ofNullable(userId).filter(u -> !u.isBlank()), Optional.empty(),
                (UsageReports.Period) period, List.of("day", "model", "session", "user", "purpose", "agent")));
    }
}
