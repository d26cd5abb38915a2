package ai.lango.a2a;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An A2A v0.3 agent card: who an agent is, where its JSON-RPC endpoint is ({@code url}) and what it
 * can do ({@code skills}). Field names and shapes follow the protocol (and the official Java SDK's
 * {@code io.a2a.spec.AgentCard}), so cards read and written here are understood by other A2A
 * implementations; fields Lango does not use are ignored when reading.
 */
public record AgentCard(
        String name,
        String description,
        String url,
        String version,
        String protocolVersion,
        String preferredTransport,
        Capabilities capabilities,
        List<String> defaultInputModes,
        List<String> defaultOutputModes,
        List<Skill> skills,
        List<Interface> additionalInterfaces,
        Map<String, SecurityScheme> securitySchemes,
        List<Map<String, List<String>>> security) {

    public AgentCard {
        skills = skills == null ? List.of() : List.copyOf(skills);
    }

    /** {@code {"streaming":false,"pushNotifications":false}}: Lango answers each message in one response. */
    public record Capabilities(boolean streaming, boolean pushNotifications) {
    }

    /** A distinct capability: {@code {"id","name","description","tags":[…]}}. */
    public record Skill(String id, String name, String description, List<String> tags) {

        public Skill {
            tags = tags == null ? List.of() : List.copyOf(tags);
        }
    }

    /** Another endpoint of the same agent: {@code {"transport":"JSONRPC","url":…}}. */
    public record Interface(String transport, String url) {
    }

    /** How to authenticate, e.g. {@code {"type":"http","scheme":"bearer"}}. */
    public record SecurityScheme(String type, String scheme, String bearerFormat, String description) {
    }

    /**
     * A card for an agent that speaks JSON-RPC at {@code url}, text in and out, without streaming,
     * and that accepts anyone.
     */
    public static AgentCard of(String name, String description, String url, String version, List<Skill> skills) {
        return new AgentCard(name, description, url, version, A2aProtocol.VERSION, A2aProtocol.TRANSPORT_JSONRPC,
                new Capabilities(false, false), A2aProtocol.TEXT_MODES, A2aProtocol.TEXT_MODES, skills,
                List.of(new Interface(A2aProtocol.TRANSPORT_JSONRPC, url)), null, null);
    }

    /** This card, declaring that callers must send "Authorization: Bearer &lt;token&gt;". */
    public AgentCard withBearerAuth(String description) {
        return new AgentCard(name, description(), url, version, protocolVersion, preferredTransport, capabilities,
                defaultInputModes, defaultOutputModes, skills, additionalInterfaces,
                Map.of("bearer", new SecurityScheme("http", "bearer", null, description)),
                List.of(Map.of("bearer", List.of())));
    }

    /**
     * Where to send JSON-RPC requests: {@code url} when JSON-RPC is the preferred transport (or none
     * is named), otherwise a JSON-RPC entry of {@code additionalInterfaces}.
     */
    public Optional<String> jsonRpcUrl() {
        if (preferredTransport == null || A2aProtocol.TRANSPORT_JSONRPC.equalsIgnoreCase(preferredTransport)) {
            return Optional.ofNullable(url).filter(u -> !u.isBlank());
        }
        return additionalInterfaces == null ? Optional.empty() : additionalInterfaces.stream()
                .filter(i -> A2aProtocol.TRANSPORT_JSONRPC.equalsIgnoreCase(i.transport()) && i.url() != null
                        && !i.url().isBlank())
                .map(Interface::url).findFirst();
    }
}
