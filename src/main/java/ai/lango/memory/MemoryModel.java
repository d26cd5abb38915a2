package ai.lango.memory;

import ai.lango.config.LangoSettings;
import ai.lango.provider.Completion;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The model the observer and the reflector ask: lango.memory.provider and lango.memory.model when
 * set, else the agent's. Called straight through its provider, outside any agent: no tools, no
 * history, one instruction and one input.
 */
@ApplicationScoped
public class MemoryModel {

    @Inject
    LangoSettings.Memory memory;

    @Inject
    LangoSettings.Model agentModel;

    /** Where the observer's and reflector's calls are counted (null without the container). */
    @Inject
    ai.lango.usage.UsageLedger ledger;

    private volatile Provider provider;

    public MemoryModel() {
        // for CDI
    }

    MemoryModel(LangoSettings.Memory memory, LangoSettings.Model agentModel) {
        this.memory = memory;
        this.agentModel = agentModel;
    }

    /** The provider's id and the model, e.g. "openai/gpt-4o-mini"; empty when none is configured. */
    public Optional<String> name() {
        return chosenProvider().flatMap(p -> modelName().map(m -> p.id() + "/" + m));
    }

    /** The model's whole answer to {@code input} under {@code instruction}, its usage counted for {@code session} as {@code purpose}. */
    String complete(String instruction, String input, ai.lango.turn.SessionRef session, String purpose) {
        String model = modelName().orElseThrow(() -> new IllegalStateException(
                "memory has no model: set lango.memory.model or lango.model"));
        Provider chosen = provider();
        return Completion.complete(chosen, model, instruction, input, ai.lango.usage.AsideCalls.recordedIn(ledger,
                session.userId(), session.key(), purpose, chosen.id(), ai.lango.session.TokenEstimator::estimate));
    }

    private Provider provider() {
        Provider current = provider;
        if (current == null) {
            LangoSettings.ModelProvider chosen = chosenProvider().orElseThrow(() -> new IllegalStateException(
                    "memory has no provider: set lango.memory.provider or lango.provider"));
            current = ProviderCatalog.create(chosen.id(), chosen.baseUrl(), chosen.apiKey(), chosen.readTimeout());
            provider = current;
        }
        return current;
    }

    private Optional<LangoSettings.ModelProvider> chosenProvider() {
        return memory.provider().or(agentModel::provider);
    }

    private Optional<String> modelName() {
        return memory.model().or(agentModel::name);
    }
}
