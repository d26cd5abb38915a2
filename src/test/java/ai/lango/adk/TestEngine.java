package ai.lango.adk;

import ai.lango.adk.models.ProviderCalls;
import ai.lango.adk.runner.RunnerFixtures;
import ai.lango.adk.runner.TurnThreads;
import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.adk.tools.ToolCatalogs;
import ai.lango.config.LangoSettings;
import ai.lango.prompt.ContextSections;
import ai.lango.session.SessionLeases;
import ai.lango.session.SessionStore;
import ai.lango.turn.LearnedFixes;
import ai.lango.turn.Recall;
import ai.lango.turn.TurnContext;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The agents and the turn engine as the server wires them, without the container. */
final class TestEngine {

    final Agents agents = new Agents();
    final TurnEngine engine = new TurnEngine();

    TestEngine(LangoSettings settings, SessionStore store, TurnThreads threads) {
        JpaSessionService sessions = new JpaSessionService(store, settings);
        agents.settings = settings;
        agents.sessions = sessions;
        agents.calls = new ProviderCalls();
        agents.tools = ToolCatalogs.builtin(settings);
        agents.sections = new ContextSections(List.of());
        agents.recall = Recall.NONE;
        agents.approvals = RunnerFixtures.noApprovals();
        agents.artifacts = new ai.lango.artifact.ArtifactStore();
        engine.settings = settings;
        engine.agents = agents;
        engine.sessions = sessions;
        engine.metrics = RunnerFixtures.metrics();
        engine.threads = threads;
        engine.fixes = LearnedFixes.NONE;
        engine.approvals = RunnerFixtures.noApprovals();
        engine.leases = new SessionLeases(settings);
        engine.completed = new RecordedEvents<>();
        engine.turnRows = new NoTurnRows();
        engine.store = store;
    }

    /** No database: a turn's own row is written nowhere (DurableTurnIT covers the rows on both databases). */
    private static final class NoTurnRows extends ai.lango.session.TurnRows {
        @Override
        public String server() {
            return "test-server";
        }

        @Override
        public void ended(String id, ai.lango.session.TurnRecord.State state, String error) {
        }

        @Override
        public Optional<ai.lango.session.TurnRecord> waitingIn(String sessionScope) {
            return Optional.empty();
        }
    }

    TestEngine start() {
        agents.start(null);
        engine.start(null);
        return this;
    }

    /** A turn of {@code user} (whose credential administers or not) in {@code session}. */
    CompletableFuture<String> chat(String user, boolean admin, String session, String text, boolean streaming) {
        return engine.run(TurnContext.of(user, session, admin).build(), text, Optional.empty(), streaming, event -> { });
    }
}
