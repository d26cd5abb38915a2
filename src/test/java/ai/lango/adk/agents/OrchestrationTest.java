package ai.lango.adk.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.runner.LangoRunner;
import ai.lango.adk.runner.ScriptedLlm;
import ai.lango.adk.tools.ToolCatalog;
import ai.lango.prompt.PromptBuilder;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Toolset;
import ai.lango.turn.LearnedFixes;
import com.google.adk.agents.BaseAgent;
import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.models.LlmRequest;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.BaseTool;
import com.google.genai.types.FunctionResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The multi-agent tree as ADK builds it, and the delegation guard rails. */
class OrchestrationTest {

    private static final LangoRunner.Limits LIMITS = new LangoRunner.Limits(25, true, Duration.ofSeconds(30));
    private static final PromptBuilder PROMPTS = PromptBuilder.load(null);

    /** A tool per name, answering {"ok": true}. */
    /** Lango tools answering {"ok": true}, of the family their name's prefix suggests (search_, memory_; else an action), as ADK gets them. */
    private static List<BaseTool> tools(String... names) {
        return ToolCatalog.adapt(List.of(new Toolset() {
            public String name() {
                return "test";
            }

            public boolean enabled() {
                return true;
            }

            public List<Tool> tools() {
                return Stream.of(names).<Tool>map(name -> DeclaredTool.of(name.startsWith("search_") ? ToolFamily.SEARCH
                                : name.startsWith("memory_") ? ToolFamily.MEMORY : ToolFamily.EXEC, name, Safety.SAFE, "does nothing",
                        Map.of("type", "object", "properties", Map.of()), (args, caller) -> Map.of("ok", true))).toList();
            }
        }), Executors.newCachedThreadPool());
    }

    private static BaseAgent orchestrator(ScriptedLlm model, List<BaseTool> tools, int rounds) {
        return AgentTree.orchestrator(model, tools, List.of(), PROMPTS, rounds, AgentTree.NO_SECTIONS);
    }

    private record Run(LangoRunner runner, InMemorySessionService sessions) {
        String ask(String text) {
            return runner.runAndCollect("user", "s", text, false, e -> { });
        }

        List<Event> events() {
            Session session = sessions.getSession("lango", "user", "s", java.util.Optional.empty()).blockingGet();
            return session.events();
        }
    }

    private static Run run(BaseAgent root, int rounds) {
        InMemorySessionService sessions = new InMemorySessionService();
        Runner adk = Runner.builder().agent(root).appName("lango").sessionService(sessions)
                .artifactService(new InMemoryArtifactService()).plugins(List.of(new DelegationGuard(rounds))).build();
        sessions.createSession("lango", "user", null, "s").blockingGet();
        return new Run(new LangoRunner(adk, root, LIMITS, LearnedFixes.NONE), sessions);
    }

    private static List<String> toolNames(LlmRequest request) {
        return new ArrayList<>(request.tools().keySet());
    }

    @Test
    void multiAgentModeCreatesAnOrchestratorWithSubAgentsAndNoTools() {
        LlmAgent root = (LlmAgent) orchestrator(new ScriptedLlm(), tools("exec", "fs_read", "search_docs", "memory_list_observations"), 10);
        assertEquals("lango-orchestrator", root.name());
        assertTrue(root.tools().blockingGet().isEmpty());
        assertEquals(List.of("executor", "researcher", "planner", "memory-manager"),
                root.subAgents().stream().map(BaseAgent::name).toList());
    }

    @Test
    void eachToolIsAdaptedOnceAndLandsInExactlyOneSubAgent() {
        List<BaseTool> catalog = tools("exec", "fs_read", "fs_write", "search_docs", "custom_tool");
        BaseAgent root = orchestrator(new ScriptedLlm(), catalog, 10);
        Set<BaseTool> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (BaseAgent sub : root.subAgents()) {
            for (BaseTool tool : ((LlmAgent) sub).tools().blockingGet()) {
                assertTrue(seen.add(tool), () -> tool.name() + " is given twice");
                assertSame(catalog.stream().filter(t -> t.name().equals(tool.name())).findFirst().orElseThrow(), tool);
            }
        }
        assertEquals(catalog.size(), seen.size());
    }

    @Test
    void toolsMadeAtRunTimeGoToTheExecutorAndNowhereElse() {
        com.google.adk.tools.BaseToolset mcp = new com.google.adk.tools.BaseToolset() {
            @Override
            public io.reactivex.rxjava3.core.Flowable<BaseTool> getTools(com.google.adk.agents.ReadonlyContext context) {
                return io.reactivex.rxjava3.core.Flowable.empty();
            }

            @Override
            public void close() {
            }
        };
        BaseAgent root = AgentTree.orchestrator(new ScriptedLlm(), tools("exec", "search_docs"), List.of(mcp), List.of(), PROMPTS, 10,
                AgentTree.NO_SECTIONS);
        for (BaseAgent sub : root.subAgents()) {
            boolean holds = ((LlmAgent) sub).toolsets().contains(mcp);
            assertEquals(sub.name().equals("executor"), holds, sub.name() + " holds the MCP servers' tools: " + holds);
        }
        assertTrue(((LlmAgent) root).toolsets().isEmpty(), "the orchestrator holds none");
    }

    @Test
    void perTurnSectionsAreRenderedAtEachModelCallForTheSessionAndTheUsersMessage() {
        ScriptedLlm model = new ScriptedLlm().thenCall("noop", java.util.Map.of()).thenText("Done.");
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        BaseAgent agent = AgentTree.single(model, tools("noop"), PROMPTS,
                context -> "\n\n## Section " + calls.incrementAndGet() + " for " + context.sessionKey() + ": " + context.userMessage());

        assertEquals("Done.", run(agent, 10).ask("remember this"));

        assertEquals(2, model.requests.size());
        assertTrue(systemText(model.requests.get(0)).contains("## Section 1 for s: remember this"), systemText(model.requests.get(0)));
        assertTrue(systemText(model.requests.get(1)).contains("## Section 2 for s: remember this"), "rendered again at the second call");
    }

    private static String systemText(LlmRequest request) {
        return request.config().flatMap(c -> c.systemInstruction()).flatMap(c -> c.parts()).orElse(List.of()).stream()
                .map(p -> p.text().orElse("")).reduce("", String::concat);
    }

    @Test
    void singleAgentModeBuildsOneFlatAgentWithEveryTool() {
        LlmAgent agent = (LlmAgent) AgentTree.single(new ScriptedLlm(), tools("exec", "search_docs"), PROMPTS, AgentTree.NO_SECTIONS);
        assertEquals("lango-agent", agent.name());
        assertTrue(agent.subAgents().isEmpty());
        assertEquals(List.of("exec", "search_docs"), agent.tools().blockingGet().stream().map(BaseTool::name).toList());
    }

    @Test
    void orchestratorRequestOffersOnlyTheTransferTool() {
        ScriptedLlm model = new ScriptedLlm().thenText("Hello!");
        run(orchestrator(model, tools("exec", "fs_write"), 10), 10).ask("hello");
        assertEquals(List.of("transfer_to_agent"), toolNames(model.requests.get(0)));
        String system = model.requests.get(0).getSystemInstructions().toString();
        assertTrue(system.contains("NEVER invent or abbreviate agent names"));
        assertFalse(system.contains("Tool usage:"), "the orchestrator gets no tool-usage section");
    }

    @Test
    void transferToExecutorRunsTheToolInTheExecutor() {
        ScriptedLlm model = new ScriptedLlm()
                .thenCall("transfer_to_agent", Map.of("agent_name", "executor"))
                .thenCall("fs_write", Map.of("path", "a.txt", "content", "x"))
                .thenText("Wrote a.txt.");
        Run run = run(orchestrator(model, tools("exec", "fs_write"), 10), 10);

        assertEquals("Wrote a.txt.", run.ask("write a.txt"));
        assertEquals(List.of("exec", "fs_write", "transfer_to_agent"),
                toolNames(model.requests.get(1)).stream().sorted().toList());
        Event toolResult = run.events().stream().filter(e -> e.functionResponses().stream()
                .anyMatch(r -> r.name().orElse("").equals("fs_write"))).findFirst().orElseThrow();
        assertEquals("executor", toolResult.author());
    }

    @Test
    void transferToAnUnknownAgentIsRefusedThenRetriedWithTheCorrection() {
        ScriptedLlm model = new ScriptedLlm()
                .thenCall("transfer_to_agent", Map.of("agent_name", "exec"))
                .thenCall("transfer_to_agent", Map.of("agent_name", "executor"))
                .thenText("Done.");
        Run run = run(orchestrator(model, tools("exec"), 10), 10);

        assertEquals("Done.", run.ask("run it"));
        assertEquals(3, model.requests.size(), "the refused transfer ends the first run without another model call");
        assertTrue(model.requests.get(1).contents().toString()
                .contains("[System: Agent \"exec\" does not exist. Valid agents: executor, planner."), model.requests.get(1).contents().toString());
        FunctionResponse refused = run.events().stream().flatMap(e -> e.functionResponses().stream())
                .filter(r -> r.name().orElse("").equals("transfer_to_agent")).findFirst().orElseThrow();
        assertEquals(Map.of("error", "Agent not found: exec"), refused.response().orElseThrow(),
                "never recorded as a successful transfer");
        assertTrue(run.events().stream().noneMatch(e -> e.actions().transferToAgent().filter("exec"::equals).isPresent()));
    }

    @Test
    void delegationRoundLimitEndsAPingPongWithTheOrchestratorsAnswer() {
        ScriptedLlm model = new ScriptedLlm()
                .thenCall("transfer_to_agent", Map.of("agent_name", "executor"))            // round 1
                .thenCall("transfer_to_agent", Map.of("agent_name", "lango-orchestrator"))  // executor hands back
                .thenCall("transfer_to_agent", Map.of("agent_name", "executor"))            // round 2
                .thenCall("transfer_to_agent", Map.of("agent_name", "lango-orchestrator"))
                .thenCall("transfer_to_agent", Map.of("agent_name", "executor"))            // refused
                .thenText("Here is what I have.");
        Run run = run(orchestrator(model, tools("exec"), 2), 2);

        assertEquals("Here is what I have.", run.ask("loop"));
        String last = model.requests.get(model.requests.size() - 1).contents().toString();
        assertTrue(last.contains("delegation round limit (2) is reached"), model.requests.size() + " requests; last: " + last);
        assertEquals("lango-orchestrator", run.events().get(run.events().size() - 1).author());
    }
}
