package ai.lango.api.a2a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import ai.lango.a2a.AgentCard;
import ai.lango.turn.AgentInfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentCardsTest {

    private static final String URL = "http://localhost:9080/api/a2a";

    @Test
    void cardNamesTheRootAndHasOneSkillPerSubAgent() {
        AgentInfo root = new AgentInfo("lango-orchestrator", "Delegates to specialists", List.of(), List.of(
                new AgentInfo("executor", "command execution, file operations", List.of("exec"), List.of(), false),
                new AgentInfo("planner", "", List.of(), List.of(), false)), false);
        AgentCard card = AgentCards.card(Optional.of(root), URL, "1.0");
        assertEquals("lango-orchestrator", card.name());
        assertEquals("Delegates to specialists", card.description());
        assertEquals(URL, card.jsonRpcUrl().orElseThrow());
        assertEquals("1.0", card.version());
        assertEquals(List.of(
                new AgentCard.Skill("executor", "executor", "command execution, file operations", List.of("lango", "executor")),
                new AgentCard.Skill("planner", "planner", "planner", List.of("lango", "planner"))), card.skills());
    }

    @Test
    void rootWithoutSubAgentsIsTheOneSkill() {
        AgentInfo root = new AgentInfo("lango-agent", "Lango Assistant", List.of("fs_read"), List.of(), false);
        assertEquals(List.of(new AgentCard.Skill("lango-agent", "lango-agent", "Lango Assistant",
                List.of("lango", "lango-agent"))), AgentCards.card(Optional.of(root), URL, "1").skills());
    }

    @Test
    void withoutAModelTheCardIsLangosDefaultAgent() {
        AgentCard card = AgentCards.card(Optional.empty(), URL, "1");
        assertEquals("lango-agent", card.name());
        assertEquals("Lango Assistant", card.description());
        assertEquals("lango-agent", card.skills().get(0).id());
    }

    @Test
    void endpointUrlIsTheRequestsSchemeHostPortAndContextPath() {
        assertEquals("http://localhost:19080/lango-it/api/a2a", AgentCards.endpointUrl("http", "localhost", 19080, "/lango-it"));
        assertEquals("http://example.com/api/a2a", AgentCards.endpointUrl("http", "example.com", 80, ""));
        assertEquals("https://example.com/api/a2a", AgentCards.endpointUrl("HTTPS", "example.com", 443, null));
        assertEquals("https://example.com:80/api/a2a", AgentCards.endpointUrl("https", "example.com", 80, ""));
        assertEquals("http://[::1]:9080/api/a2a", AgentCards.endpointUrl("http", "::1", 9080, ""));
        assertEquals("http://[::1]:9080/api/a2a", AgentCards.endpointUrl("http", "[::1]", 9080, ""));
    }
}
