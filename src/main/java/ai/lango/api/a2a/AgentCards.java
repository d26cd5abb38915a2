package ai.lango.api.a2a;

import ai.lango.a2a.AgentCard;
import ai.lango.api.LangoApi;
import ai.lango.turn.AgentInfo;
import ai.lango.turn.Names;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Lango's A2A agent card, from its root agent and the address a caller reached it at. */
final class AgentCards {

    /** The tag every skill of this server carries. */
    static final String TAG = "lango";

    private AgentCards() {
    }

    /**
     * The card: the root agent's name and description (Lango's defaults when no model is
     * configured), the JSON-RPC endpoint, and one skill per sub-agent of the root, or the root
     * itself as the one skill when it has none.
     */
    static AgentCard card(Optional<AgentInfo> root, String endpointUrl, String version) {
        String name = root.map(AgentInfo::name).filter(n -> !n.isBlank()).orElse(Names.SINGLE_AGENT);
        String description = root.map(AgentInfo::description).filter(d -> d != null && !d.isBlank())
                .orElse(Names.SINGLE_AGENT_DESCRIPTION);
        List<AgentInfo> subAgents = root.isPresent() ? root.get().subAgents() : List.of();
        List<AgentCard.Skill> skills = subAgents.isEmpty()
                ? List.of(skill(name, description))
                : subAgents.stream().map(sub -> skill(sub.name(), sub.description())).toList();
        return AgentCard.of(name, description, endpointUrl, version, skills);
    }

    private static AgentCard.Skill skill(String name, String description) {
        String text = description == null || description.isBlank() ? name : description;
        return new AgentCard.Skill(name, name, text, name.equals(TAG) ? List.of(TAG) : List.of(TAG, name));
    }

    /**
     * The A2A endpoint as the caller sees this server, e.g. {@code http://host:9080/api/a2a}:
     * the request's scheme, host and port (the default port left out), the context path, then
     * the API path.
     */
    static String endpointUrl(String scheme, String host, int port, String contextPath) {
        String s = scheme.toLowerCase(Locale.ROOT);
        boolean defaultPort = (s.equals("http") && port == 80) || (s.equals("https") && port == 443);
        String path = (contextPath == null ? "" : contextPath) + LangoApi.PATH + "/" + A2aResource.PATH;
        try {
            return new URI(s, null, host, defaultPort ? -1 : port, path, null, null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot build the A2A endpoint URL from host \"" + host + "\"", e);
        }
    }
}
