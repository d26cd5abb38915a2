package ai.lango.a2a;

/** The constants of A2A over JSON-RPC that both versions share, each in one place. */
public final class A2aProtocol {

    /** The 0.3 protocol version an agent card declares in its 0.3 fields. */
    public static final String VERSION = "0.3.0";
    /** The transport Lango serves and the only one its client uses. */
    public static final String TRANSPORT_JSONRPC = "JSONRPC";

    /** Where an agent card is published, relative to the server's root: the current name and the older one. */
    public static final String CARD_PATH = "/.well-known/agent-card.json";
    public static final String LEGACY_CARD_PATH = "/.well-known/agent.json";

    public static final String METHOD_PUSH_CONFIG_PREFIX_V03 = "tasks/pushNotificationConfig/";
    public static final String METHOD_EXTENDED_CARD_V03 = "agent/getAuthenticatedExtendedCard";
    public static final String METHOD_EXTENDED_CARD = "GetExtendedAgentCard";

    private A2aProtocol() {
    }
}
