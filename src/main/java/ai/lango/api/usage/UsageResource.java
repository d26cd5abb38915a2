package ai.lango.api.usage;

import ai.lango.api.ApiJson;
import ai.lango.api.Callers;
import ai.lango.api.UsageReports;
import ai.lango.security.Identity;
import ai.lango.usage.Budgets;
import ai.lango.usage.UsageRows;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /api/usage}: the caller's own model usage in a period ({@code ?from=&to=}, the last 30 days when
 * unset; {@code ?sessionKey=} for one session): totals, and by day, model and session; and their budgets.
 */
@Path("usage")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class UsageResource {

    @Inject
    UsageRows rows;

    @Inject
    Budgets budgets;

    @GET
    public Response usage(@QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("sessionKey") String sessionKey,
                          @Context HttpServletRequest request) {
        Object period = UsageReports.period(from, to);
        if (period instanceof Response refused) {
            return refused;
        }
        Identity caller = Callers.of(request);
        ObjectNode report = UsageReports.report(rows, Optional.of(caller.userId()), Optional.ofNullable(sessionKey)
                .filter(s -> !s.isBlank()), (UsageReports.Period) period, List.of("day", "model", "session"));
        report.set("budget", UsageReports.budget(budgets.standing(caller.userId(), caller.administersAs(caller.userId()))));
        return ApiJson.ok(report);
    }
}
