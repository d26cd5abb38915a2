package ai.lango.a2a;

import java.util.List;

/** The constants of A2A v0.3 over JSON-RPC that Lango speaks, each in one place. */
public final class A2aProtocol {

    /** The protocol version an agent card declares. */
    public static final String VERSION = "0.3.0";
    /** The transport Lango serves and the only one its client uses. */
    public static final String TRANSPORT_JSONRPC = "JSONRPC";
    public static final String JSONRPC_VERSION = "2.0";

    /** Where an agent card is published, relative to the server's root: the v0.3 name and the older one. */
    public static final String CARD_PATH = "/.well-known/agent-card.json";
    public static final String LEGACY_CARD_PATH = "/.well-known/agent.json";

    public static final String METHOD_SEND = "message/send";
    public static final String METHOD_STREAM = "message/stream";
    public static final String METHOD_TASKS_GET = "tasks/get";
    public static final String METHOD_TASKS_CANCEL = "tasks/cancel";
    public static final String METHOD_TASKS_RESUBSCRIBE = "tasks/resubscribe";
    public static final String METHOD_PUSH_CONFIG_PREFIX = "tasks/pushNotificationConfig/";
    public static final String METHOD_EXTENDED_CARD = "agent/getAuthenticatedExtendedCard";

    public static final String TEXT_PLAIN = "text/plain";
    public static final List<String> TEXT_MODES = List.of(TEXT_PLAIN);

    public static final String ROLE_USER = "user";
    public static final String ROLE_AGENT = "agent";
    public static final String KIND_MESSAGE = "message";
    public static final String KIND_TASK = "task";
    public static final String PART_TEXT = "text";
    public static final String PART_DATA = "data";
    public static final String PART_FILE = "file";

    private A2aProtocol() {
    }
}
