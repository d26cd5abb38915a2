package ai.lango.a2a;

import ai.lango.net.jsonrpc.JsonRpc;

/**
 * An A2A exchange that failed. The message is meant for the user (it names the remote agent or
 * URL and what went wrong, never a stack trace); {@link #code()} is the JSON-RPC error code that
 * fits, {@link JsonRpc#INTERNAL_ERROR} unless a more precise one is known.
 */
public class A2aException extends Exception {

    private final int code;

    public A2aException(String message) {
        this(JsonRpc.INTERNAL_ERROR, message, null);
    }

    public A2aException(String message, Throwable cause) {
        this(JsonRpc.INTERNAL_ERROR, message, cause);
    }

    public A2aException(int code, String message) {
        this(code, message, null);
    }

    public A2aException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
