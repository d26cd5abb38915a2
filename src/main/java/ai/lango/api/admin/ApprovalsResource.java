package ai.lango.api.admin;

import ai.lango.api.ApiJson;
import ai.lango.api.Paging;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** For operators: the audit list of approvals — every request, every decision, who made it and when; newest first. */
@Path("admin/approvals")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class ApprovalsResource {

    @Inject
    Approvals approvals;

    /** At most {@code limit} ({@value Paging#MAX_LIMIT} at most, 50 by default), of the session {@code sessionKey} when given. */
    @GET
    public Response approvals(@QueryParam("sessionKey") String sessionKey, @QueryParam("limit") String limit) {
        Paging paging = Paging.of(null, limit);
        List<Approval> recent = approvals.recent(sessionKey == null || sessionKey.isBlank() ? null : sessionKey, paging.limit());
        return ApiJson.ok(ApiJson.page("approvals", recent.stream().map(ApprovalsResource::json).toList(), paging));
    }

    static ObjectNode json(Approval a) {
        ObjectNode node = ApiJson.MAPPER.createObjectNode().put("approvalId", a.id()).put("userId", a.userId())
                .put("sessionKey", a.sessionKey()).put("callId", a.callId()).put("agent", a.agent()).put("tool", a.tool())
                .put("safety", a.safety().name().toLowerCase(java.util.Locale.ROOT))
                .put("decision", a.decision().wire()).put("by", a.decidedBy().map(Approval.By::wire).orElse(null))
                .put("ran", a.ran()).put("createdAt", a.createdAt().toString()).put("expiresAt", a.expiresAt().toString())
                .put("decidedAt", a.decidedAt().map(Object::toString).orElse(null));
        node.set("args", ApiJson.MAPPER.valueToTree(a.argsMap()));
        node.set("notes", ApiJson.MAPPER.valueToTree(a.notesMap()));
        return node;
    }
}
