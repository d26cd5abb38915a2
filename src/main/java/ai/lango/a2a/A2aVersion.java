package ai.lango.a2a;

import java.util.Locale;
import java.util.Optional;

/**
 * The two versions of A2A's JSON-RPC binding Lango speaks on one endpoint, each with its method names:
 * 1.0 ({@code SendMessage}, …; enums as {@code TASK_STATE_COMPLETED}, parts without a kind, results wrapped
 * as {@code {"task":…}}) and 0.3 ({@code message/send}, …; {@code "completed"}, {@code {"kind":"text",…}}).
 * A request is answered in the version its method name belongs to.
 */
public enum A2aVersion {
    V1_0("1.0", "SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask"),
    V0_3("0.3", "message/send", "message/stream", "tasks/get", null, "tasks/cancel", "tasks/resubscribe");

    /** The header a 1.0 client names its version in. */
    public static final String HEADER = "A2A-Version";

    private final String number;
    public final String send;
    public final String stream;
    public final String get;
    /** Null where the version has no such method (0.3 lists no tasks). */
    public final String list;
    public final String cancel;
    public final String subscribe;

    A2aVersion(String number, String send, String stream, String get, String list, String cancel, String subscribe) {
        this.number = number;
        this.send = send;
        this.stream = stream;
        this.get = get;
        this.list = list;
        this.cancel = cancel;
        this.subscribe = subscribe;
    }

    /** "1.0" or "0.3", as an agent card's interface and the A2A-Version header name it. */
    public String number() {
        return number;
    }

    /** The version a method name belongs to; empty for a name neither has. */
    public static Optional<A2aVersion> ofMethod(String method) {
        for (A2aVersion version : values()) {
            if (method.equals(version.send) || method.equals(version.stream) || method.equals(version.get)
                    || method.equals(version.list) || method.equals(version.cancel) || method.equals(version.subscribe)) {
                return Optional.of(version);
            }
        }
        return Optional.empty();
    }

    /** The version an A2A-Version header or a card's protocolVersion names ("1.0", "0.3.0", …); empty for others. */
    public static Optional<A2aVersion> ofNumber(String given) {
        if (given == null) {
            return Optional.empty();
        }
        String number = given.strip().toLowerCase(Locale.ROOT).replaceFirst("^v", "");
        for (A2aVersion version : values()) {
            if (number.equals(version.number) || number.startsWith(version.number + ".")) {
                return Optional.of(version);
            }
        }
        return Optional.empty();
    }
}
