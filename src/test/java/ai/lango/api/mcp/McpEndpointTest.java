package ai.lango.api.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.approval.Approval;
import ai.lango.approval.Approvals;
import ai.lango.config.TestSettings;
import ai.lango.security.Credentials;
import ai.lango.security.Identity;
import ai.lango.security.Quotas;
import ai.lango.tool.Safety;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /mcp's own decisions, on a servlet without a server: what a refused turn leaves, what a cut body costs. */
class McpEndpointTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "ann";
    private static final String APPROVAL = "approval-1";

    @TempDir
    Path dir;

    /** The decisions asked of the approvals, in order. */
    private final List<String> decided = new CopyOnWriteArrayList<>();

    /** /mcp for {@code USER}, with one request of theirs waiting for approval and every turn refused by its budget. */
    private McpEndpoint endpoint() {
        McpEndpoint endpoint = new McpEndpoint();
        endpoint.settings = TestSettings.defaults(dir);
        endpoint.credentials = new Credentials() {
            @Override
            public Optional<Identity> fromAuthorization(String header) {
                return Optional.of(Identity.user(USER, false));
            }
        };
        endpoint.quotas = new Quotas() {
            @Override
            public Optional<java.time.Duration> request(Identity caller) {
                return Optional.empty();
            }
        };
        endpoint.sessions = new McpSessions();
        Approval waiting = new Approval(APPROVAL, USER, "mcp-session", "call-1", Optional.empty(), "lango-agent", "fs_delete",
                "{}", Safety.DANGEROUS, Approval.Decision.PENDING, Optional.empty(), false, Instant.now(),
                Instant.now().plusSeconds(300), Optional.empty(), "{}");
        endpoint.approvals = new Approvals() {
            @Override
            public Optional<Approval> get(String id) {
                return id.equals(APPROVAL) ? Optional.of(waiting) : Optional.empty();
            }

            @Override
            public Optional<Outcome> decide(String id, String userId, boolean approved, Approval.By by) {
                decided.add(id + " " + approved);
                return Optional.of(new Outcome(approved ? Approval.Decision.APPROVED : Approval.Decision.DENIED, true));
            }
        };
        // The application layer refuses the turn the answer would continue, as a spent budget does (Turns admits before
        // it decides: TurnsTest); the edge answers with the refusal and decides nothing itself.
        endpoint.turns = new ai.lango.turns.Turns() {
            @Override
            public java.util.concurrent.CompletableFuture<String> answer(Identity caller, String approvalId, boolean approved,
                                                                         boolean streaming, Optional<Continuation> answering) {
                throw new ai.lango.turns.TurnRefused(429, "budget_exceeded", "the day's tokens are spent");
            }
        };
        return endpoint;
    }

    /** A response that keeps its status and body. */
    private static final class Answer {
        int status = 200;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();

        HttpServletResponse response() {
            ServletOutputStream out = new ServletOutputStream() {
                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                }

                @Override
                public void write(int b) {
                    body.write(b);
                }
            };
            return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletResponse.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "setStatus" -> {
                            status = (int) args[0];
                            yield null;
                        }
                        case "getOutputStream" -> out;
                        case "getStatus" -> status;
                        default -> null;
                    });
        }

        JsonNode json() throws IOException {
            return JSON.readTree(body.toByteArray());
        }
    }

    private static HttpServletRequest request(String session, InputStream body) {
        ServletInputStream in = new ServletInputStream() {
            @Override
            public boolean isFinished() {
                return false;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
            }

            @Override
            public int read() throws IOException {
                return body.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return body.read(b, off, len);
            }
        };
        Map<String, String> headers = new java.util.HashMap<>(Map.of("Authorization", "Bearer t", "Accept", "application/json"));
        if (session != null) {
            headers.put("Mcp-Session-Id", session);
        }
        return (HttpServletRequest) Proxy.newProxyInstance(McpEndpointTest.class.getClassLoader(), new Class<?>[] {HttpServletRequest.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getInputStream" -> in;
                    case "getMethod" -> "POST";
                    default -> null;
                });
    }

    @Test
    void anAnswerWhoseTurnIsRefusedLeavesTheApprovalWaiting() throws Exception {
        McpEndpoint endpoint = endpoint();
        String session = endpoint.sessions.open(USER, "2025-06-18", false).id;
        Answer answer = new Answer();
        endpoint.doPost(request(session, new java.io.ByteArrayInputStream(("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"answer_approval\",\"arguments\":{\"approvalId\":\"" + APPROVAL + "\",\"approved\":true}}}")
                .getBytes(StandardCharsets.UTF_8))), answer.response());
        JsonNode result = answer.json().path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        assertTrue(result.toString().contains("budget_exceeded"), result.toString());
        assertEquals(List.of(), decided, "a refused turn decides nothing: the request still waits for an answer that can run");
    }

    @Test
    void aBodyCutOffMidUploadIsOneFineLineAndA400() throws Exception {
        McpEndpoint endpoint = endpoint();
        Logger log = Logger.getLogger(McpEndpoint.class.getName());
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler keep = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level before = log.getLevel();
        log.setLevel(Level.ALL);
        log.addHandler(keep);
        Answer answer = new Answer();
        try {
            InputStream cut = new java.io.SequenceInputStream(new java.io.ByteArrayInputStream("{\"jsonrpc\":\"2.0\",\"id\":1,".getBytes(
                    StandardCharsets.UTF_8)), new InputStream() {
                        @Override
                        public int read() throws IOException {
                            throw new java.io.EOFException("the client went away");
                        }
                    });
            endpoint.doPost(request(null, cut), answer.response());
        } finally {
            log.removeHandler(keep);
            log.setLevel(before);
        }
        assertEquals(400, answer.status);
        assertEquals(-32600, answer.json().path("error").path("code").asInt(), answer.body.toString(StandardCharsets.UTF_8));
        assertEquals(1, logged.size(), logged.stream().map(LogRecord::getMessage).toList().toString());
        assertEquals(Level.FINE, logged.get(0).getLevel());
        assertEquals(null, logged.get(0).getThrown(), "no stack trace");
    }

    /** An id must be a string or a number, as JSON-RPC says: an object is not answered to as if it were one. */
    @Test
    void anIdThatIsNeitherTextNorANumberIsAnInvalidRequest() throws Exception {
        McpEndpoint endpoint = endpoint();
        String session = endpoint.sessions.open(USER, "2025-06-18", false).id;
        Answer answer = new Answer();
        endpoint.doPost(request(session, new java.io.ByteArrayInputStream("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}"
                .getBytes(StandardCharsets.UTF_8))), answer.response());
        assertEquals(400, answer.status);
        assertEquals(-32600, answer.json().path("error").path("code").asInt(), answer.body.toString(StandardCharsets.UTF_8));
        assertTrue(answer.json().get("id").isNull(), answer.body.toString(StandardCharsets.UTF_8));
    }
}
