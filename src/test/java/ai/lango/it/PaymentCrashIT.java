package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.web3j.crypto.Credentials;
import org.web3j.utils.Numeric;

/**
 * Nothing paid twice, nothing lost: the server is killed (SIGKILL) after it sent a payment and
 * while it waits for the receipt (the chain not mining); the chain then mines it; the server,
 * started again, settles the payment from the chain — confirmed, the recipient paid exactly once,
 * the wallet's nonce used once — and the day's spend is still counted.
 */
@Tag(ItDatabase.OWN_SERVERS)
@Tag(ItDatabase.HSQLDB_TAG)
@Execution(ExecutionMode.CONCURRENT) // its server is its own: it runs beside the Arquillian tests
class PaymentCrashIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    void aPaymentSentBeforeAKillIsReconciledFromTheChainNeverSentAgain() throws Exception {
        assumeTrue(ItChain.available(), "payment tests skipped: run .ci/run (it installs Anvil and solc into .ci/chain)");
        int port = ItPorts.HTTP + 60;
        int fakePort = ItPorts.FAKE_LLM + 40;
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        key[0] = (byte) (key[0] & 0x7f | 0x01);
        Credentials wallet = Credentials.create(Numeric.toHexString(key));
        String to = "0x" + UUID.randomUUID().toString().replace("-", "") + "0000000a";
        Path data = Path.of("target", "it-data-payment-crash-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
        try (ItChain chain = ItChain.start(); FakeLlmServer fake = FakeLlmServer.start(fakePort)) {
            chain.fundEth(wallet.getAddress());
            chain.mint(wallet.getAddress(), BigInteger.valueOf(1_000_000));
            fake.route(r -> r.body() != null && r.body().contains("\"role\":\"tool\""), r -> Reply.openAiText("Paid."));
            fake.route(r -> true, r -> Reply.openAiToolCall("call_" + UUID.randomUUID().toString().substring(0, 8), "payment_send",
                    "{\"to\":\"" + to + "\",\"amount\":\"0.05\",\"purpose\":\"before the crash\"}"));
            Map<String, String> environment = ItDatabase.HSQLDB.environment(data, port);
            environment.put("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:" + fakePort + "/v1");
            environment.put("LANGO_A2A_ENABLED", "false");
            environment.put("LANGO_PAYMENT_ENABLED", "true");
            environment.put("LANGO_PAYMENT_RPC_URL", chain.url());
            try (LibertyServer server = LibertyServer.copyOf(ItDatabase.HSQLDB.server("payment-crash"), port, environment)) {
                server.start();
                HttpResponse<String> imported = send(server, "PUT", "api/admin/payment/wallet", "{\"privateKey\":\""
                        + Numeric.toHexString(key) + "\"}");
                assertEquals(201, imported.statusCode(), imported.body());

                chain.automine(false);
                CompletableFuture<HttpResponse<String>> turn = CompletableFuture.supplyAsync(() -> {
                    try {
                        return send(server, "POST", "api/run", TestJson.runRequest("user", "crash-pay", "pay before the crash"));
                    } catch (Exception e) {
                        return null;
                    }
                });
                long until = System.currentTimeMillis() + 60_000;
                while (chain.rpc("eth_getTransactionCount", wallet.getAddress(), "pending").asText().equals("0x0")) {
                    assertTrue(System.currentTimeMillis() < until, "the payment was never sent");
                    Thread.sleep(50);
                }
                server.kill();
                turn.cancel(true);
                chain.mine();
                chain.automine(true);
                assertEquals(BigInteger.valueOf(50_000), chain.usdc(to), "mined while the server was down");

                server.start();
                JsonNode payment = null;
                until = System.currentTimeMillis() + 60_000;
                while (System.currentTimeMillis() < until) {
                    JsonNode status = TestJson.MAPPER.readTree(send(server, "GET", "api/admin/payment", null).body());
                    payment = status.path("payments").get(0);
                    if (payment != null && "confirmed".equals(payment.path("status").asText())) {
                        assertEquals("0.05", status.path("spentToday").asText(), "still counted after the restart");
                        break;
                    }
                    Thread.sleep(500);
                }
                assertEquals("confirmed", payment == null ? null : payment.path("status").asText(), String.valueOf(payment));
                Thread.sleep(2_000);
                assertEquals(BigInteger.valueOf(50_000), chain.usdc(to), "paid exactly once");
                assertEquals("0x1", chain.rpc("eth_getTransactionCount", wallet.getAddress(), "latest").asText(),
                        "one transaction ever left the wallet");
                assertFalse(send(server, "GET", "api/admin/payment", null).body().contains(Numeric.toHexStringNoPrefix(key)));
            }
            // The key was sent once, to be sealed: no file of the server's data or logs holds it.
            String secret = Numeric.toHexStringNoPrefix(key);
            for (Path root : List.of(data, Path.of("target", "liberty", "wlp", "usr", "servers",
                    ItDatabase.HSQLDB.server("payment-crash"), "logs"))) {
                try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(root)) {
                    for (Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
                        String text = new String(java.nio.file.Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
                        assertFalse(text.toLowerCase(java.util.Locale.ROOT).contains(secret), "the wallet key in " + file);
                    }
                }
            }
        }
    }

    private HttpResponse<String> send(LibertyServer server, String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(server.base().resolve(path)).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(2))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
