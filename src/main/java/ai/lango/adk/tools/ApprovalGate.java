package ai.lango.adk.tools;

import ai.lango.approval.Approval;
import ai.lango.approval.ApprovalPolicy;
import ai.lango.approval.Approvals;
import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.References;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.turn.SessionRef;
import com.google.adk.events.ToolConfirmation;
import com.google.adk.tools.ToolContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one point where a tool call meets the approval policy, before it runs, for every tool of
 * every agent. A call that asks is stored as a request and handed to ADK as a confirmation request
 * (the turn then ends: nothing waits); when the turn is resumed with the answer, the call runs only
 * if its stored request was approved, has not run, and names this tool with exactly these
 * arguments — whatever the confirmation ADK passes says. Calls of moderate and dangerous tools the
 * policy lets through are recorded.
 */
final class ApprovalGate {

    /** For code without a container (tests, tools on their own): every call runs. */
    static final ApprovalGate OPEN = new ApprovalGate(null, null);

    private final LangoSettings.Approval settings;
    private final Approvals approvals;

    ApprovalGate(LangoSettings.Approval settings, Approvals approvals) {
        this.settings = settings;
        this.approvals = approvals;
    }

    /**
     * Whether the call runs, and whether a person approved it; or what the model gets instead of the
     * tool's result.
     */
    record Verdict(boolean approvedByPerson, Map<String, Object> instead) {

        static final Verdict RUNS = new Verdict(false, null);

        boolean runs() {
            return instead == null;
        }
    }

    /**
     * Whether the call runs. A call that carries a secret's value ({@code use}) is dangerous, whatever
     * the tool declares: under the approval policy a person approves it, seeing which secrets and where
     * they would go.
     */
    Verdict before(Tool tool, Map<String, Object> args, ToolContext context, Caller caller, References.Use use) {
        if (approvals == null || context == null) {
            return Verdict.RUNS;
        }
        Optional<ToolConfirmation> confirmation = context.toolConfirmation();
        Safety safety = use.any() ? Safety.DANGEROUS : tool.safety(args);
        boolean asks = tool.alwaysAsks(args, caller) || ApprovalPolicy.asks(settings, tool.name(), safety);
        if (confirmation.isEmpty() && !asks && safety == Safety.SAFE) {
            return Verdict.RUNS; // nothing to record: the call is not serialised, hashed or stored
        }
        String userId = context.userId();
        String sessionKey = context.sessionId();
        Approvals.Call call = approvals.call(userId, sessionKey, SessionRef.of(userId, sessionKey).scope(),
                context.functionCallId().orElse(""), context.agentName(), tool.name(), args, safety);
        if (confirmation.isPresent()) {
            return resumed(call, confirmation.get());
        }
        if (!asks) {
            approvals.ranByPolicy(call);
            return Verdict.RUNS;
        }
        Approval request = approvals.request(call.noting(notes(tool, args, caller, use, call.sessionScope())));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("approvalId", request.id());
        payload.put("agent", request.agent());
        payload.put("tool", request.tool());
        payload.put("args", request.argsMap());
        payload.put("safety", request.safety().name().toLowerCase(java.util.Locale.ROOT));
        payload.put("expiresAt", request.expiresAt().toString());
        payload.put("notes", request.notesMap());
        context.requestConfirmation("A person must approve or deny " + tool.name() + " (approval " + request.id() + ").",
                payload);
        // on the span in force (the call's): the wait for a person starts here (the turn ends; the answer resumes it)
        io.opentelemetry.api.trace.Span.current().addEvent("lango.approval.requested", io.opentelemetry.api.common.Attributes.of(
                io.opentelemetry.api.common.AttributeKey.stringKey("lango.approval.id"), request.id(),
                io.opentelemetry.api.common.AttributeKey.stringKey("lango.tool.safety"), payload.get("safety").toString()));
        return new Verdict(false, Map.of("status", "awaiting_approval", "approvalId", request.id(),
                "message", "This call waits for a person to approve it; it has not run."));
    }

    /** What the person is shown besides the call: the secrets it carries and where they go, and the tool's own notes. */
    private Map<String, Object> notes(Tool tool, Map<String, Object> args, Caller caller, References.Use use, String scope) {
        Map<String, Object> notes = new LinkedHashMap<>();
        if (use.any()) {
            notes.put("secrets", use.names());
            notes.put("destination", use.destination().map(d -> "*".equals(d) ? "any host" : d).orElse("this machine only"));
        }
        notes.putAll(tool.approvalNotes(args, caller, approvals.lastApprovedRun(scope, tool.name()).orElse(null)));
        return notes;
    }

    /** The turn resumed with an answer: the call runs once, if its request was approved as it stands. */
    private Verdict resumed(Approvals.Call call, ToolConfirmation confirmation) {
        Optional<Approval> request = approvals.forCall(call.sessionScope(), call.callId());
        if (request.isEmpty()) {
            return refusal("not_approved", "No approval was asked for this call; it did not run.");
        }
        waited(approvals.get(request.get().id()).orElse(request.get()));
        if (confirmation.confirmed() && approvals.run(request.get(), call)) {
            // a read-only call the server runs again after a crash is not a person's approval
            return new Verdict(request.get().decidedBy().filter(by -> by == Approval.By.USER).isPresent(), null);
        }
        Approval now = approvals.get(request.get().id()).orElse(request.get());
        if (now.rerun() && now.decision() != Approval.Decision.APPROVED) {
            return refusal(now.decision().wire(), "It did not run again: " + (now.decision() == Approval.Decision.DENIED
                    ? "a person said no" : now.decision() == Approval.Decision.EXPIRED ? "no one answered in time"
                    : "a new message came first") + ". The server had stopped while it ran before, so it may or may not"
                    + " have taken effect: do not assume either.");
        }
        return switch (now.decision()) {
            case DENIED -> refusal("denied", "A person denied this call; it did not run.");
            case EXPIRED -> refusal("expired", "No one approved this call in time; it did not run.");
            case SUPERSEDED -> refusal("superseded", "A new message came before an answer; this call did not run.");
            case APPROVED -> refusal(now.ran() ? "already_ran" : "not_approved", now.ran()
                    ? "This call was approved once and has run; it does not run again." : "This call differs from the one approved; it did not run.");
            case PENDING -> refusal("not_approved", "This call has not been answered; it did not run.");
        };
    }

    /**
     * The wait for a person as a span of its own in the trace of the turn the answer resumed: from the request to the
     * decision, with the decision.
     */
    private static void waited(Approval asked) {
        java.time.Instant decided = asked.decidedAt().orElse(java.time.Instant.now());
        ai.lango.telemetry.Telemetry.tracer().spanBuilder("approval " + asked.tool())
                .setStartTimestamp(asked.createdAt())
                .setAttribute("gen_ai.tool.name", asked.tool())
                .setAttribute("lango.approval.id", asked.id())
                .setAttribute("lango.approval.decision", asked.decision().wire())
                .setAttribute("lango.approval.wait_seconds", java.time.Duration.between(asked.createdAt(), decided).toMillis() / 1000.0)
                .startSpan().end(decided);
    }

    private static Verdict refusal(String status, String message) {
        return new Verdict(false, Map.of("status", status, "message", message));
    }
}
