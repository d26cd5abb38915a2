package ai.lango.adk.agents;

import ai.lango.a2a.A2aClient;
import ai.lango.a2a.A2aException;
import ai.lango.a2a.AgentCard;
import ai.lango.masking.MaskedLogs;
import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.InvocationContext;
import com.google.adk.events.Event;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * A remote A2A agent as a sub-agent of the orchestrator:
 * a transfer to it sends the user's request to the remote agent with {@code message/send} and its
 * answer becomes this agent's event. The remote conversation is keyed by the Lango session.
 */
public final class RemoteAgent extends BaseAgent {

    private static final Logger LOG = MaskedLogs.of(RemoteAgent.class);

    private final AgentCard card;
    private final A2aClient client;

    RemoteAgent(String name, AgentCard card, A2aClient client) {
        super(name, describe(card), List.of(), null, null);
        this.card = card;
        this.client = client;
    }

    /**
     * The configured remote agents whose cards can be read; one that cannot is skipped with a
     * warning, and the orchestrator works with the rest.
     */
    public static List<BaseAgent> load(Map<String, URI> configured, A2aClient cards, A2aClient client) {
        List<BaseAgent> agents = new ArrayList<>();
        configured.forEach((name, cardUrl) -> {
            try {
                agents.add(new RemoteAgent(name, cards.fetchCard(cardUrl), client));
            } catch (A2aException | RuntimeException e) {
                LOG.warning("Remote agent " + name + " is skipped: " + e.getMessage());
            }
        });
        return List.copyOf(agents);
    }

    private static String describe(AgentCard card) {
        String description = card.description() == null || card.description().isBlank() ? card.name() : card.description();
        return description + " (remote agent \"" + card.name() + "\")";
    }

    @Override
    protected Flowable<Event> runAsyncImpl(InvocationContext context) {
        return Flowable.fromCallable(() -> {
            String request = context.userContent().map(RemoteAgent::text).orElse("");
            String answer;
            try {
                answer = client.send(card, context.session().id(), request);
            } catch (A2aException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            return Event.builder()
                    .id(Event.generateEventId())
                    .invocationId(context.invocationId())
                    .author(name())
                    .branch(context.branch().orElse(null))
                    .content(Content.builder().role("model").parts(List.of(Part.fromText(answer))).build())
                    .build();
        });
    }

    @Override
    protected Flowable<Event> runLiveImpl(InvocationContext context) {
        return Flowable.error(new UnsupportedOperationException("remote agents do not run live"));
    }

    private static String text(Content content) {
        StringBuilder text = new StringBuilder();
        content.parts().orElse(List.of()).forEach(part -> part.text().ifPresent(text::append));
        return text.toString();
    }

}
