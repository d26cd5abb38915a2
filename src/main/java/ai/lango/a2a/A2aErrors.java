package ai.lango.a2a;

/**
 * The JSON-RPC error codes A2A adds to JSON-RPC's own ({@link ai.lango.net.jsonrpc.JsonRpc}), which
 * Lango's endpoint answers with and its client reads.
 */
public final class A2aErrors {

    public static final int TASK_NOT_FOUND = -32001;
    public static final int TASK_NOT_CANCELABLE = -32002;
    public static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
    public static final int UNSUPPORTED_OPERATION = -32004;
    public static final int CONTENT_TYPE_NOT_SUPPORTED = -32005;
    public static final int INVALID_AGENT_RESPONSE = -32006;
    public static final int AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED = -32007;
    public static final int VERSION_NOT_SUPPORTED = -32009;

    private A2aErrors() {
    }
}
