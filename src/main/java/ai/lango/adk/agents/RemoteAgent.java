package ai.lango.adk.agents;

import ai.lango.a2a.A2aClient;
import ai.lango.a2a.A2aException;
import ai.lango.a2a.AgentCard;
import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.masking.MaskedLogs;
import ai.lango.tool.Safety;
import ai.lango.turn.SessionRef;
import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.InvocationContext;
import com.google.adk.events.Event;
import com.google.adk.flows.llmflows.Functions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * A remote A2A agent (1.0 or 0.3, as its card offers) as a sub-agent of the orchestrator: a transfer to
 * it sends the user's request to the remote agent, its answer streams on as this agent's chunks and
 * becomes this agent's event. The remote conversation is keyed by the Lango session. When the remote
 * task asks for input, the question goes to Lango's user as a request for approval, like a dangerous
 * tool call's; the answer resumes this agent (ADK routes the confirmation to the agent that asked),
 * which continues the same remote task with it.
 */
public final class RemoteAgent extends BaseAgent {

    private static final Logger LOG = MaskedLogs.of(RemoteAgent.class);

    private final AgentCard card;
    private final A2aClient client;
    private final Approvals approvals;

    RemoteAgent(String name, AgentCard card, A2aClient client, Approvals approvals) {
        super(name, describe(card), List.of(), null, null);
        this.card = card;
        this.client = client;
        this.approvals = approvals;
    }

    /**
     * The configured remote agents whose cards can be read; one that cannot is skipped with a
     * warning, and the orchestrator works with the rest. {@code approvals}: where their questions are
     * asked (null: a question is answered as text, for code without a container).
     */
    public static List<RemoteAgent> load(Map<String, URI> configured, A2aClient cards, A2aClient client, Approvals approvals) {
        List<RemoteAgent> agents = new ArrayList<>();
        configured.forEach((name, cardUrl) -> {
            try {
                agents.add(new RemoteAgent(name, cards.fetchCard(cardUrl), client, approvals));
            } catch (A2aException | RuntimeException e) {
                LOG.warning("Remote agent " + name + " is skipped: " + e.getMessage());
            }
        });
        return List.copyOf(agents);
    }

    /** The same remote agent, anew: a turn's tree owns its agents (a tree sets each sub-agent's parent). */
    public RemoteAgent anew() {
        return new RemoteAgent(name(), card, client, approvals);
    }

    private static String describe(AgentCard card) {
        String description = card.description() == null || card.description().isBlank() ? card.name() : card.description();
        return description + " (remote agent \"" + card.name() + "\")";
    }

    /** The tool name a remote agent's question is asked under, as a person sees it on the approval card. */
    String questionTool() {
        return "a2a_" + name().replaceAll("[^A-Za-z0-9_-]", "_");
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext context) {
        return Flowable.create(emitter -> {
            try {
                Optional<Content> input = context.userContent();
                Optional<FunctionResponse> answer = input.flatMap(RemoteAgent::confirmation);
                A2aClient.Reply reply;
                java.util.function.Consumer<String> chunks = chunk -> emitter.onNext(event(context, chunk, true));
                if (answer.isPresent()) {
                    reply = answered(context, answer.get(), chunks);
                } else {
                    reply = client.send(card, A2aClient.Request.of(context.session().id(), input.map(RemoteAgent::text).orElse("")),
                            chunks);
                }
                if (reply instanceof A2aClient.Reply.Question question && approvals != null) {
                    emitter.onNext(ask(context, question));
                } else {
                    emitter.onNext(event(context, reply.text(), false));
                }
                emitter.onComplete();
            } catch (A2aException e) {
                emitter.onError(new IllegalStateException(e.getMessage(), e));
            } catch (RuntimeException e) {
                emitter.onError(e);
            }
        }, BackpressureStrategy.BUFFER);
    }

    /** The person's answer to the remote task's question, sent on the same remote task. */
    private A2aClient.Reply answered(InvocationContext context, FunctionResponse response,
                                     java.util.function.Consumer<String> chunks) throws A2aException {
        String scope = SessionRef.of(context.userId(), context.session().id()).scope();
        Approval approval = approvals == null ? null : approvals.forConfirmation(scope, response.id().orElse("")).orElse(null);
        if (approval == null) {
            throw new A2aException("the answer to remote agent \"" + name() + "\"'s question belongs to no question it asked");
        }
        approval = approvals.get(approval.id()).orElse(approval);
        boolean approved = approval.decision() == Approval.Decision.APPROVED;
        Map<String, Object> asked = approval.argsMap();
        return client.send(card, new A2aClient.Request(String.valueOf(asked.get("context")), String.valueOf(asked.get("task")),
                approved ? "approve" : "deny", approved), chunks);
    }

    /** The remote task's question as a request for approval: stored, and handed to ADK as its confirmation request. */
    private Event ask(InvocationContext context, A2aClient.Reply.Question question) {
        String userId = context.userId();
        String sessionKey = context.session().id();
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("question", question.text());
        if (question.data() != null) {
            args.put("details", question.data().toString());
        }
        args.put("task", question.taskId());
        args.put("context", question.contextId());
        String callId = "a2a-" + UUID.randomUUID();
        Approval request = approvals.request(approvals.call(userId, sessionKey, SessionRef.of(userId, sessionKey).scope(), callId,
                name(), questionTool(), args, Safety.DANGEROUS));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("approvalId", request.id());
        payload.put("agent", name());
        payload.put("tool", request.tool());
        payload.put("args", request.argsMap());
        payload.put("safety", Safety.DANGEROUS.name().toLowerCase(Locale.ROOT));
        payload.put("expiresAt", request.expiresAt().toString());
        payload.put("notes", Map.of("remoteAgent", card.name()));
        Map<String, Object> original = Map.of("id", callId, "name", request.tool(), "args", request.argsMap());
        Map<String, Object> confirmation = Map.of("hint", "Remote agent \"" + card.name() + "\" asks: " + question.text(),
                "confirmed", false, "payload", payload);
        String confirmationId = "adk-" + UUID.randomUUID();
        FunctionCall call = FunctionCall.builder().id(confirmationId).name(Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME)
                .args(Map.of("originalFunctionCall", original, "toolConfirmation", confirmation)).build();
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId(context.invocationId())
                .author(name())
                .branch(context.branch().orElse(null))
                .content(Content.builder().role("model").parts(List.of(Part.builder().functionCall(call).build())).build())
                .longRunningToolIds(java.util.Set.of(confirmationId))
                .build();
    }

    private Event event(InvocationContext context, String text, boolean partial) {
        return Event.builder()
                .id(Event.generateEventId())
                .invocationId(context.invocationId())
                .author(name())
                .branch(context.branch().orElse(null))
                .partial(partial)
                .content(Content.builder().role("model").parts(List.of(Part.fromText(text))).build())
                .build();
    }

    @Override
    protected Flowable<Event> runLiveImpl(InvocationContext context) {
        return Flowable.error(new UnsupportedOperationException("remote agents do not run live"));
    }

    /** The answer to a question this agent asked, when the user's input is one. */
    private static Optional<FunctionResponse> confirmation(Content content) {
        return content.parts().orElse(List.of()).stream().flatMap(p -> p.functionResponse().stream())
                .filter(r -> Functions.REQUEST_CONFIRMATION_FUNCTION_CALL_NAME.equals(r.name().orElse(""))).findFirst();
    }

    private static String text(Content content) {
        StringBuilder text = new StringBuilder();
        content.parts().orElse(List.of()).forEach(part -> part.text().ifPresent(text::append));
        return text.toString();
    }
}
