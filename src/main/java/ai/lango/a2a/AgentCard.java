package ai.lango.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An A2A agent card: who an agent is, where it answers JSON-RPC in which version, whether it streams and
 * what it can do. {@link #toJson()} writes one card that both versions' clients read: 1.0's
 * {@code supportedInterfaces} (1.0 first, so a 1.0 client picks it) beside 0.3's {@code url},
 * {@code preferredTransport} and {@code protocolVersion}; {@link #read} takes either.
 */
public record AgentCard(String name, String description, String version, Map<A2aVersion, String> endpoints,
                        boolean streaming, List<Skill> skills, Optional<String> bearer) {

    /** The media types Lango reads and writes. */
    public static final List<String> MODES = List.of("text/plain", "application/json");

    /** A distinct capability: {@code {"id","name","description","tags":[…]}}. */
    public record Skill(String id, String name, String description, List<String> tags) {

        public Skill {
            tags = tags == null ? List.of() : List.copyOf(tags);
        }
    }

    public AgentCard {
        endpoints = endpoints.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(endpoints));
        skills = skills == null ? List.of() : List.copyOf(skills);
        bearer = bearer == null ? Optional.empty() : bearer;
    }

    /** Lango's card: both versions at {@code url}, streaming, these skills; anyone may call it. */
    public static AgentCard of(String name, String description, String url, String version, List<Skill> skills) {
        return new AgentCard(name, description, version, Map.of(A2aVersion.V1_0, url, A2aVersion.V0_3, url), true, skills,
                Optional.empty());
    }

    /** This card, declaring that callers must send "Authorization: Bearer &lt;credential&gt;" (described so). */
    public AgentCard withBearerAuth(String description) {
        return new AgentCard(name, description(), version, endpoints, streaming, skills, Optional.of(description));
    }

    /** The version to speak to this agent: 1.0 when it offers it, else 0.3; empty when it offers neither over JSON-RPC. */
    public Optional<A2aVersion> preferred() {
        return endpoints.containsKey(A2aVersion.V1_0) ? Optional.of(A2aVersion.V1_0)
                : endpoints.containsKey(A2aVersion.V0_3) ? Optional.of(A2aVersion.V0_3) : Optional.empty();
    }

    /** Where to send JSON-RPC requests in the preferred version. */
    public Optional<String> jsonRpcUrl() {
        return preferred().map(endpoints::get);
    }

    /** The card as JSON, for both versions' clients. */
    public ObjectNode toJson() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode card = json.objectNode().put("name", name).put("description", description).put("version", version);
        ArrayNode interfaces = card.putArray("supportedInterfaces");
        for (A2aVersion v : List.of(A2aVersion.V1_0, A2aVersion.V0_3)) {
            if (endpoints.containsKey(v)) {
                interfaces.addObject().put("url", endpoints.get(v)).put("protocolBinding", A2aProtocol.TRANSPORT_JSONRPC)
                        .put("protocolVersion", v.number());
            }
        }
        String legacy = endpoints.get(A2aVersion.V0_3);
        if (legacy != null) {
            card.put("url", legacy).put("preferredTransport", A2aProtocol.TRANSPORT_JSONRPC)
                    .put("protocolVersion", A2aProtocol.VERSION);
            card.putArray("additionalInterfaces").addObject().put("transport", A2aProtocol.TRANSPORT_JSONRPC).put("url", legacy);
        }
        card.putObject("capabilities").put("streaming", streaming).put("pushNotifications", false);
        MODES.forEach(card.putArray("defaultInputModes")::add);
        MODES.forEach(card.putArray("defaultOutputModes")::add);
        ArrayNode skillNodes = card.putArray("skills");
        for (Skill skill : skills) {
            ObjectNode node = skillNodes.addObject().put("id", skill.id()).put("name", skill.name())
                    .put("description", skill.description());
            skill.tags().forEach(node.putArray("tags")::add);
        }
        bearer.ifPresent(text -> {
            // One scheme object in both shapes: 0.3's {"type":"http","scheme":"bearer"} and 1.0's
            // {"httpAuthSecurityScheme":{…}}; each version's readers skip the other's fields.
            ObjectNode scheme = card.putObject("securitySchemes").putObject("bearer").put("type", "http")
                    .put("scheme", "bearer").put("description", text);
            scheme.putObject("httpAuthSecurityScheme").put("scheme", "Bearer").put("description", text);
            card.putArray("security").addObject().putArray("bearer"); // 0.3
            card.putArray("securityRequirements").addObject().putObject("schemes").putObject("bearer").putArray("list"); // 1.0
        });
        return card;
    }

    /**
     * A card as either version writes it, read at {@code cardUrl} (relative endpoint URLs resolve against it).
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static AgentCard read(JsonNode card, URI cardUrl) {
        if (card == null || !card.isObject()) {
            throw new IllegalArgumentException("it is not a JSON object");
        }
        String name = card.path("name").asText("");
        if (name.isBlank()) {
            throw new IllegalArgumentException("it has no name");
        }
        Map<A2aVersion, String> endpoints = new EnumMap<>(A2aVersion.class);
        for (JsonNode entry : card.path("supportedInterfaces")) {
            if (A2aProtocol.TRANSPORT_JSONRPC.equalsIgnoreCase(entry.path("protocolBinding").asText(""))
                    && entry.path("url").isTextual()) {
                // A 1.0 field: an entry without a version is 1.0's, as 1.0's own clients take it.
                A2aVersion v = A2aVersion.ofNumber(entry.path("protocolVersion").asText("1.0")).orElse(null);
                if (v != null) {
                    endpoints.putIfAbsent(v, resolve(cardUrl, entry.get("url").asText()));
                }
            }
        }
        A2aVersion legacy = A2aVersion.ofNumber(card.path("protocolVersion").asText("0.3")).orElse(A2aVersion.V0_3);
        String preferred = card.path("preferredTransport").asText(A2aProtocol.TRANSPORT_JSONRPC);
        if (preferred.equalsIgnoreCase(A2aProtocol.TRANSPORT_JSONRPC) && card.path("url").isTextual()
                && !card.get("url").asText().isBlank()) {
            endpoints.putIfAbsent(legacy, resolve(cardUrl, card.get("url").asText()));
        }
        for (JsonNode entry : card.path("additionalInterfaces")) {
            if (A2aProtocol.TRANSPORT_JSONRPC.equalsIgnoreCase(entry.path("transport").asText("")) && entry.path("url").isTextual()) {
                endpoints.putIfAbsent(legacy, resolve(cardUrl, entry.get("url").asText()));
            }
        }
        List<Skill> skills = new ArrayList<>();
        for (JsonNode skill : card.path("skills")) {
            List<String> tags = new ArrayList<>();
            skill.path("tags").forEach(t -> tags.add(t.asText()));
            skills.add(new Skill(skill.path("id").asText(""), skill.path("name").asText(""), skill.path("description").asText(""),
                    tags));
        }
        boolean bearer = false;
        for (JsonNode scheme : card.path("securitySchemes")) {
            bearer |= "bearer".equals(scheme.path("scheme").asText("").toLowerCase(Locale.ROOT))
                    || "bearer".equals(scheme.path("httpAuthSecurityScheme").path("scheme").asText("").toLowerCase(Locale.ROOT));
        }
        return new AgentCard(name, card.path("description").asText(""), card.path("version").asText(""), endpoints,
                card.path("capabilities").path("streaming").asBoolean(false), skills,
                bearer ? Optional.of("bearer") : Optional.empty());
    }

    private static String resolve(URI base, String url) {
        try {
            URI resolved = base == null ? new URI(url.trim()) : base.resolve(new URI(url.trim()));
            String scheme = resolved.getScheme() == null ? "" : resolved.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || resolved.getHost() == null) {
                throw new IllegalArgumentException("its endpoint \"" + url + "\" is not an http:// or https:// URL");
            }
            return resolved.toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("its endpoint \"" + url + "\" is not a URL");
        }
    }
}
