package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.web3j.utils.Numeric;

/**
 * The day's limit across two servers on one PostgreSQL and a restart: with 0.10 a day, each server
 * is asked to pay 0.06 at the same moment from the one wallet — one pays, the other is refused
 * naming max-daily, and the chain moved 0.06 once; restarted, a server still counts it and refuses
 * 0.05.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.POSTGRESQL_TAG)
@Execution(ExecutionMode.CONCURRENT) // servers and a chain of its own: beside the Arquillian tests, as the other own-server tests
class PaymentScaleOutIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void twoServersPayingAtOnceCannotBothPassTheDaysLimitAndARestartStillCountsIt() throws Exception {
        ItDatabase.POSTGRESQL.assumeAvailable();
        assumeTrue(ItChain.available(), "payment tests skipped: run .ci/run (it installs Anvil and solc into .ci/chain)");
        int fakePort = ItPorts.FAKE_LLM + 41;
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        key[0] = (byte) (key[0] & 0x7f | 0x01);
        String walletAddress = org.web3j.crypto.Credentials.create(Numeric.toHexString(key)).getAddress();
        String run = UUID.randomUUID().toString().substring(0, 8);
        String toA = "0x" + UUID.randomUUID().toString().replace("-", "") + "000000a1";
        String toB = "0x" + UUID.randomUUID().toString().replace("-", "") + "000000b2";
        try (ItChain chain = ItChain.start(); FakeLlmServer fake = FakeLlmServer.start(fakePort)) {
            chain.fundEth(walletAddress);
            chain.mint(walletAddress, BigInteger.valueOf(1_000_000));
            fake.route(r -> r.body() != null && r.body().contains("\"role\":\"tool\""), r -> Reply.openAiText("Done."));
            for (Map.Entry<String, String> ask : Map.of("pay-a-" + run, toA, "pay-b-" + run, toB, "late-" + run, toB).entrySet()) {
                String amount = ask.getKey().startsWith("late") ? "0.05" : "0.06";
                fake.route(r -> r.body() != null && r.body().contains(ask.getKey()), r -> Reply.openAiToolCall("call_"
                        + UUID.randomUUID().toString().substring(0, 8), "payment_send", "{\"to\":\"" + ask.getValue()
                        + "\",\"amount\":\"" + amount + "\",\"purpose\":\"" + ask.getKey() + "\"}"));
            }
            String name = ItDatabase.POSTGRESQL.server("payment");
            try (LibertyServer a = server(name + "-a", ItPorts.HTTP + 61, fakePort, chain);
                 LibertyServer b = server(name + "-b", ItPorts.HTTP + 62, fakePort, chain)) {
                CompletableFuture<Void> startA = CompletableFuture.runAsync(() -> start(a));
                start(b);
                startA.join();
                HttpResponse<String> imported = send(a, "PUT", "api/admin/payment/wallet", "{\"privateKey\":\""
                        + Numeric.toHexString(key) + "\",\"replace\":true}");
                assertEquals(201, imported.statusCode(), imported.body());

                CompletableFuture<String> payA = CompletableFuture.supplyAsync(() -> turn(a, "pay-a-" + run));
                String answerB = turn(b, "pay-b-" + run);
                String answerA = payA.join();
                List<String> answers = List.of(answerA, answerB);
                assertEquals(1, answers.stream().filter(t -> t.contains("\"status\":\"confirmed\"")).count(),
                        "one of them pays: " + answers);
                assertEquals(1, answers.stream().filter(t -> t.contains("lango.payment.limits.max-daily")).count(),
                        "the other is refused by the day's limit: " + answers);
                assertEquals(BigInteger.valueOf(60_000), chain.usdc(toA).add(chain.usdc(toB)), "0.06 moved, once");

                b.kill();
                b.start();
                JsonNode status = TestJson.MAPPER.readTree(send(b, "GET", "api/admin/payment", null).body());
                assertEquals("0.06", status.path("spentToday").asText(), "still counted after a restart: " + status);
                String late = turn(b, "late-" + run);
                assertTrue(late.contains("lango.payment.limits.max-daily") && late.contains("0.04 left"), late);
                assertEquals(BigInteger.valueOf(60_000), chain.usdc(toA).add(chain.usdc(toB)));
            }
        }
    }

    private static LibertyServer server(String name, int port, int fakePort, ItChain chain) throws Exception {
        Map<String, String> environment = ItDatabase.POSTGRESQL.environment(Path.of("target", "it-data-" + name), port, "payscale");
        environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
        environment.put("LANGO_A2A_ENABLED", "false");
        environment.put("LANGO_PAYMENT_ENABLED", "true");
        environment.put("LANGO_PAYMENT_RPC_URL", chain.url());
        environment.put("LANGO_PAYMENT_LIMITS_MAX_DAILY", "0.10");
        return LibertyServer.copyOf(name, port, environment);
    }

    private static void start(LibertyServer server) {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A turn of its own session on {@code server}: what /api/run answered. */
    private String turn(LibertyServer server, String marker) {
        try {
            HttpResponse<String> run = send(server, "POST", "api/run", TestJson.runRequest("payer-" + marker, marker, marker));
            assertEquals(200, run.statusCode(), run.body());
            return run.body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(LibertyServer server, String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(server.base().resolve(path)).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(2))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
