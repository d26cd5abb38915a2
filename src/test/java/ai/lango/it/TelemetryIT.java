package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A turn as one trace in the tools teams use: a server of its own with the standard OTEL_* variables exports to an
 * OTLP receiver in this test (Liberty's mpTelemetry, http/protobuf). A multi-agent turn with a tool call that waits
 * for approval: the request's server span, the turn, invoke_agent per agent, chat per model call with the GenAI
 * attributes and usage, execute_tool with its call id and the approval wait, the trace context sent to the model's
 * provider, the GenAI metrics — and no conversation text on any span.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
class TelemetryIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Span> spans = new CopyOnWriteArrayList<>();
    private final List<String> metricNames = new CopyOnWriteArrayList<>();

    private HttpServer receiver() throws Exception {
        HttpServer otlp = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        otlp.createContext("/", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                String path = exchange.getRequestURI().getPath();
                if (path.endsWith("/v1/traces")) {
                    ExportTraceServiceRequest.parseFrom(body).getResourceSpansList().forEach(r -> r.getScopeSpansList()
                            .forEach(s -> spans.addAll(s.getSpansList())));
                } else if (path.endsWith("/v1/metrics")) {
                    ExportMetricsServiceRequest.parseFrom(body).getResourceMetricsList().forEach(r -> r.getScopeMetricsList()
                            .forEach(s -> s.getMetricsList().forEach(m -> metricNames.add(m.getName()))));
                }
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            }
        });
        otlp.start();
        return otlp;
    }

    private static String attribute(Span span, String key) {
        for (KeyValue kv : span.getAttributesList()) {
            if (kv.getKey().equals(key)) {
                return kv.getValue().hasIntValue() ? String.valueOf(kv.getValue().getIntValue()) : kv.getValue().getStringValue();
            }
        }
        return null;
    }

    private static String hex(com.google.protobuf.ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    private List<Span> named(String prefix) {
        return spans.stream().filter(s -> s.getName().startsWith(prefix)).toList();
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aMultiAgentTurnWithAnApprovalIsOneTraceInTheGenAiConventions() throws Exception {
        int port = ItPorts.HTTP + 80;
        int fakePort = ItPorts.FAKE_LLM + 60;
        String run = UUID.randomUUID().toString().substring(0, 8);
        String ask = "please remove trace-" + run + ".txt";
        Path workspace = Path.of("target", "it-workspace-telemetry-" + run).toAbsolutePath();
        Files.createDirectories(workspace);
        Files.writeString(workspace.resolve("trace-" + run + ".txt"), "to be deleted");
        HttpServer otlp = receiver();
        try (FakeLlmServer fake = FakeLlmServer.start(fakePort)) {
            // the executor holds fs_delete: it deletes, and once the result is in, answers; the orchestrator hands over
            fake.route(r -> r.body().contains("\"fs_delete\"") && r.body().contains("call_del") && r.body().contains("\"role\":\"tool\""),
                    r -> Reply.openAiText("Deleted."));
            fake.route(r -> r.body().contains("\"fs_delete\""),
                    r -> Reply.openAiToolCall("call_del", "fs_delete", "{\"path\":\"trace-" + run + ".txt\"}"));
            fake.route(r -> true, r -> Reply.openAiToolCall("call_hand", "transfer_to_agent", "{\"agent_name\":\"executor\"}"));
            Map<String, String> environment = ItDatabase.HSQLDB.environment(Path.of("target", "it-data-telemetry-" + run), port);
            environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
            environment.put("LANGO_AGENT_MULTI_AGENT", "true");
            environment.put("LANGO_A2A_ENABLED", "false");
            environment.put("LANGO_TOOLS_WORKSPACE", workspace.toString());
            environment.put("LANGO_SECURITY_APPROVAL_TIMEOUT", "PT5M");
            environment.put("OTEL_SDK_DISABLED", "false");
            environment.put("OTEL_SERVICE_NAME", "lango-it");
            environment.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
            environment.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + otlp.getAddress().getPort());
            environment.put("OTEL_BSP_SCHEDULE_DELAY", "100");
            environment.put("OTEL_METRIC_EXPORT_INTERVAL", "1000");
            environment.put("OTEL_LOGS_EXPORTER", "none");
            try (LibertyServer server = LibertyServer.copyOf(ItDatabase.HSQLDB.server("telemetry"), port, environment)) {
                server.start();
                HttpResponse<String> asked = post(server, TestJson.runRequest("user", "trace-" + run, ask));
                assertEquals(200, asked.statusCode(), asked.body());
                String confirmation = ItCallers.confirmationId(asked.body());
                assertNotNull(confirmation, "the call waits for approval: " + asked.body());
                HttpResponse<String> answered = post(server, ItCallers.confirm("user", "trace-" + run, confirmation, true));
                assertEquals(200, answered.statusCode(), answered.body());
                assertTrue(answered.body().contains("Deleted."), answered.body());

                long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while ((named("execute_tool fs_delete").size() < 2 || named("approval fs_delete").isEmpty()
                        || !metricNames.contains("gen_ai.client.token.usage"))
                        && System.nanoTime() < until) {
                    Thread.sleep(200);
                }
                String seen = spans.stream().map(s -> s.getName() + "(" + hex(s.getSpanId()) + "<-" + hex(s.getParentSpanId()) + ")")
                        .collect(Collectors.joining(", "));

                // the first request: HTTP server span → lango.turn → invoke_agent … → chat / execute_tool, one trace
                Span asking = spans.stream().filter(s -> s.getEventsList().stream()
                        .anyMatch(e -> e.getName().equals("lango.approval.requested"))).findFirst().orElseThrow(() -> new AssertionError(seen));
                String trace = hex(asking.getTraceId());
                List<Span> first = spans.stream().filter(s -> hex(s.getTraceId()).equals(trace)).toList();
                Span turn = first.stream().filter(s -> s.getName().equals("lango.turn")).findFirst().orElseThrow(() -> new AssertionError(seen));
                Span request = first.stream().filter(s -> hex(s.getSpanId()).equals(hex(turn.getParentSpanId()))).findFirst()
                        .orElseThrow(() -> new AssertionError("the turn's parent is the request's span: " + seen));
                assertEquals(Span.SpanKind.SPAN_KIND_SERVER, request.getKind(), request.getName());
                assertTrue(request.getName().contains("api/run"), request.getName());
                Set<String> agents = first.stream().filter(s -> s.getName().startsWith("invoke_agent"))
                        .map(s -> attribute(s, "gen_ai.agent.name")).collect(Collectors.toSet());
                assertEquals(Set.of("lango-orchestrator", "executor"), agents, seen);
                Set<String> invokeIds = first.stream().filter(s -> s.getName().startsWith("invoke_agent")).map(s -> hex(s.getSpanId()))
                        .collect(Collectors.toSet());
                List<Span> chats = first.stream().filter(s -> s.getName().equals("chat gpt-4o-mini")).toList();
                assertEquals(Set.of("lango-orchestrator", "executor"), chats.stream().map(c -> attribute(c, "gen_ai.agent.name"))
                        .collect(Collectors.toSet()), "a chat span per model call, each its agent's: " + seen);
                for (Span chat : chats) {
                    assertEquals("chat", attribute(chat, "gen_ai.operation.name"));
                    assertEquals("openai", attribute(chat, "gen_ai.provider.name"));
                    assertEquals("gpt-4o-mini", attribute(chat, "gen_ai.request.model"));
                    assertEquals(Span.SpanKind.SPAN_KIND_CLIENT, chat.getKind());
                    assertTrue(invokeIds.contains(hex(chat.getParentSpanId())), "a chat span is its agent's: " + seen);
                }
                // as the fake model reported it: 20 in and 9 out for a tool call, 12 and 1 for the one-chunk text
                assertTrue(chats.stream().filter(c -> attribute(c, "gen_ai.usage.input_tokens") != null).allMatch(c ->
                        List.of("20/9", "12/1").contains(attribute(c, "gen_ai.usage.input_tokens") + "/"
                                + attribute(c, "gen_ai.usage.output_tokens"))), "usage as the fake model reported it");
                assertTrue(chats.stream().anyMatch(c -> attribute(c, "gen_ai.usage.input_tokens") != null));
                Span firstTool = first.stream().filter(s -> s.getName().equals("execute_tool fs_delete")).findFirst()
                        .orElseThrow(() -> new AssertionError(seen));
                assertEquals("call_del", attribute(firstTool, "gen_ai.tool.call.id"));
                assertEquals("fs_delete", attribute(firstTool, "gen_ai.tool.name"));

                // the answer resumes the call: the wait for a person is a span of its own, decided, in the answer's trace
                Span wait = named("approval fs_delete").stream().findFirst().orElseThrow(() -> new AssertionError(seen));
                assertEquals("approved", attribute(wait, "lango.approval.decision"));
                assertFalse(hex(wait.getTraceId()).equals(trace), "in the trace of the request that answered");
                assertTrue(spans.stream().anyMatch(s -> hex(s.getTraceId()).equals(hex(wait.getTraceId()))
                        && s.getName().equals("execute_tool fs_delete")), "beside the resumed call: " + seen);

                // the provider was told the trace: its requests carry the chat span's context
                Optional<String> traceparent = fake.requests().get(0).headers().entrySet().stream()
                        .filter(h -> h.getKey().equalsIgnoreCase("traceparent")).map(h -> h.getValue().get(0)).findFirst();
                assertTrue(traceparent.isPresent() && traceparent.get().contains(trace), "traceparent: " + traceparent);

                assertTrue(named("call_llm").isEmpty(), "ADK's older call_llm span is left out: " + seen);
                for (Span span : spans) {
                    for (KeyValue kv : span.getAttributesList()) {
                        assertFalse(kv.getKey().startsWith("gcp.vertex.agent.") || kv.getKey().equals("gen_ai.system"), kv.getKey());
                        assertFalse(kv.getValue().toString().contains("please remove"), "no conversation text on a span: " + kv);
                    }
                }
                assertTrue(metricNames.contains("gen_ai.client.token.usage") && metricNames.contains("gen_ai.client.operation.duration"),
                        metricNames.toString());
            }
        } finally {
            otlp.stop(0);
        }
    }

    private HttpResponse<String> post(LibertyServer server, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(server.base().resolve("api/run")).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(2)).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
