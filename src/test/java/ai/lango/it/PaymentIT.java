package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.lango.fake.FakeLlmServer;
import ai.lango.fake.FakeLlmServer.Reply;
import ai.lango.fake.TestJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * Payments on the real server against a local chain (Anvil as Base Sepolia, a test USDC with
 * EIP-3009 at USDC's address), through the model's tool calls: 0.05 is paid on its own and reaches
 * the chain; 5.00 is refused and never does; 0.50 waits for a person and is paid once approved; an
 * x402 resource is paid through an in-test seller that settles the authorization on the chain (the
 * token checks the signature); the day's limit refuses what would pass it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Its subject does not depend on the database: it runs on the embedded one only (the PostgreSQL run keeps storage,
// crashes, clusters, leases and migrations).
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class PaymentIT extends FakeLlmIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final boolean CHAIN = ItChain.available();
    private static final ItChain chain = CHAIN ? ItChain.start() : null;
    /** This run's own wallet: the ledger of a PostgreSQL kept from earlier runs counts per wallet and day. */
    private static final Credentials WALLET = randomKey();
    private static final String SELLER = Keys.toChecksumAddress(randomKey().getAddress());
    private static final List<String> SELLER_SAW = new CopyOnWriteArrayList<>();
    private static final HttpServer SHOP = shop();

    @Deployment
    static WebArchive deployment() {
        return ItDeployments.configured(ItDeployments.war("lango-payment.war"), "lango.payment.enabled=" + CHAIN + "\n"
                + (CHAIN ? "lango.payment.rpc-url=" + chain.url() + "\n" : "")
                + "lango.payment.x402.enabled=true\n"
                + "lango.payment.limits.max-daily=1.00\n"
                + "lango.tools.browser.allowed-hosts=127.0.0.1:" + SHOP.getAddress().getPort() + "\n");
    }

    @ArquillianResource
    URL base;

    private static Credentials randomKey() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        key[0] = (byte) (key[0] & 0x7f | 0x01); // below secp256k1's order, never zero
        return Credentials.create(Numeric.toHexString(key));
    }

    private String session;
    /** This run's own user: payments a person did not approve count per user over 24 hours, and PostgreSQL keeps earlier runs'. */
    private static final String USER = "payer-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void fundTheWallet() throws Exception {
        if (CHAIN) {
            chain.fundEth(WALLET.getAddress());
            chain.mint(WALLET.getAddress(), BigInteger.valueOf(10_000_000));
        }
    }

    @AfterAll
    static void stopTheChain() {
        SHOP.stop(0);
        if (chain != null) {
            chain.close();
        }
    }

    @BeforeEach
    void skipWithoutAChain() throws Exception {
        assumeTrue(CHAIN, "payment tests skipped: run .ci/run (it installs Anvil and solc into .ci/chain)");
        session = "pay-" + UUID.randomUUID();
        HttpResponse<String> imported = call("PUT", "api/admin/payment/wallet", "{\"privateKey\":\""
                + Numeric.toHexStringWithPrefixZeroPadded(WALLET.getEcKeyPair().getPrivateKey(), 64) + "\",\"replace\":true}");
        assertEquals(201, imported.statusCode(), imported.body());
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A turn in which the model calls {@code tool}: the tool's answer as the model read it (null when the run stopped first), and the run's events. */
    private record Turn(JsonNode answer, String events) {
    }

    private Turn turn(String tool, String args) throws Exception {
        String callId = "call_" + UUID.randomUUID().toString().substring(0, 8);
        fake.enqueue(Reply.openAiToolCall(callId, tool, args)).enqueue(Reply.openAiText("done"));
        int before = fake.requests().size();
        HttpResponse<String> run = call("POST", "api/run", TestJson.runRequest(USER, session, "pay"));
        assertEquals(200, run.statusCode(), run.body());
        return new Turn(answerOf(callId, before), run.body());
    }

    private JsonNode answerOf(String callId, int from) throws Exception {
        for (FakeLlmServer.Recorded request : fake.requests().subList(from, fake.requests().size())) {
            for (JsonNode message : request.json().path("messages")) {
                if (callId.equals(message.path("tool_call_id").asText())) {
                    return TestJson.MAPPER.readTree(message.path("content").asText());
                }
            }
        }
        return null;
    }

    private static String recipient() {
        return Keys.toChecksumAddress(randomKey().getAddress());
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(1)
    void fiveCentsArePaidOnTheirOwnAndReachTheChain() throws Exception {
        String to = recipient();
        JsonNode paid = turn("payment_send", "{\"to\":\"" + to + "\",\"amount\":\"0.05\",\"purpose\":\"a test coffee\"}").answer;
        assertEquals("confirmed", paid.path("status").asText(), paid.toString());
        assertTrue(paid.path("txHash").asText().startsWith("0x"), paid.toString());
        assertEquals(BigInteger.valueOf(50_000), chain.usdc(to), "the chain moved exactly 0.05 USDC");

        JsonNode limits = turn("payment_limits", "{}").answer;
        assertEquals("0.05", limits.path("spentToday").asText(), limits.toString());
        assertEquals("0.95", limits.path("leftToday").asText(), limits.toString());
        JsonNode history = turn("payment_history", "{\"limit\":5}").answer;
        assertEquals("a test coffee", history.path("payments").get(0).path("purpose").asText(), history.toString());
        JsonNode info = turn("payment_wallet_info", "{}").answer;
        assertEquals(WALLET.getAddress(), info.path("address").asText().toLowerCase(java.util.Locale.ROOT));
        assertEquals("9.95", info.path("usdc").asText(), info.toString());
        assertFalse(call("GET", "api/admin/payment", null).body().contains(WALLET.getEcKeyPair().getPrivateKey().toString(16)),
                "the key is never shown");
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(2)
    void fiveDollarsAreRefusedAndNeverReachTheChain() throws Exception {
        String to = recipient();
        JsonNode refused = turn("payment_send", "{\"to\":\"" + to + "\",\"amount\":\"5.00\",\"purpose\":\"too much\"}").answer;
        assertTrue(refused.path("error").asText().contains("lango.payment.limits.max-per-tx (1.00 USDC)"), refused.toString());
        assertEquals(BigInteger.ZERO, chain.usdc(to));
        assertFalse(call("GET", "api/admin/payment", null).body().contains("too much"), "nothing was stored for it");
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(3)
    void fiftyCentsWaitForAPersonAndArePaidOnceApproved() throws Exception {
        String to = recipient();
        String callId = "call_" + UUID.randomUUID().toString().substring(0, 8);
        fake.enqueue(Reply.openAiToolCall(callId, "payment_send", "{\"to\":\"" + to + "\",\"amount\":\"0.50\",\"purpose\":\"a book\"}"));
        HttpResponse<String> asked = call("POST", "api/run", TestJson.runRequest(USER, session, "buy the book"));
        String confirmationId = null;
        for (JsonNode event : TestJson.MAPPER.readTree(asked.body())) {
            for (JsonNode part : event.path("content").path("parts")) {
                if ("adk_request_confirmation".equals(part.path("functionCall").path("name").asText())) {
                    confirmationId = part.path("functionCall").path("id").asText();
                }
            }
        }
        assertTrue(confirmationId != null, "a person is asked: " + asked.body());
        assertEquals(BigInteger.ZERO, chain.usdc(to), "nothing is paid while it waits");

        fake.enqueue(Reply.openAiText("Bought."));
        int before = fake.requests().size();
        HttpResponse<String> resumed = call("POST", "api/run", "{\"appName\":\"lango\",\"userId\":\"" + USER + "\",\"sessionId\":\"" + session
                + "\",\"newMessage\":{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"id\":\"" + confirmationId
                + "\",\"name\":\"adk_request_confirmation\",\"response\":{\"confirmed\":true}}}]}}");
        assertEquals(200, resumed.statusCode(), resumed.body());
        assertEquals(BigInteger.valueOf(500_000), chain.usdc(to), "paid once approved: " + resumed.body());
        JsonNode answer = answerOf(callId, before);
        assertEquals("confirmed", answer == null ? null : answer.path("status").asText(), String.valueOf(answer));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(4)
    void anX402ResourceIsPaidAndTheTokenAcceptsTheSignature() throws Exception {
        BigInteger before = chain.usdc(SELLER);
        JsonNode fetched = turn("payment_x402_fetch", "{\"url\":\"http://127.0.0.1:" + SHOP.getAddress().getPort() + "/report\"}").answer;
        assertEquals(200, fetched.path("status").asInt(), fetched.toString());
        assertEquals("the premium report", fetched.path("body").asText());
        assertEquals("settled", fetched.path("payment").path("status").asText(), fetched.toString());
        assertTrue(fetched.path("settlement").asText().contains("\"success\":true"), fetched.toString());
        assertEquals(before.add(BigInteger.valueOf(20_000)), chain.usdc(SELLER), "the token took the signed authorization");
        assertEquals(2, SELLER_SAW.size(), "asked once, paid once: " + SELLER_SAW);
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(5)
    void theDaysLimitRefusesWhatWouldPassIt() throws Exception {
        // 0.05 + 0.50 + 0.02 are spent today; 1.00 is the day's limit here, so 0.45 would pass it.
        JsonNode refused = turn("payment_send", "{\"to\":\"" + recipient() + "\",\"amount\":\"0.45\",\"purpose\":\"late\"}").answer;
        assertTrue(refused.path("error").asText().contains("lango.payment.limits.max-daily"), String.valueOf(refused));
        assertTrue(refused.path("error").asText().contains("0.57 spent or in flight, 0.43 left"), String.valueOf(refused));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(6)
    void smallPaymentsAddUpToTheApprovalThreshold() throws Exception {
        // 0.05 went through unapproved today (the approval threshold is 0.10): another 0.05 waits for a person.
        String to = recipient();
        fake.enqueue(Reply.openAiToolCall("call_split", "payment_send", "{\"to\":\"" + to + "\",\"amount\":\"0.05\","
                + "\"purpose\":\"the second half\"}"));
        HttpResponse<String> asked = call("POST", "api/run", TestJson.runRequest(USER, session, "pay the rest"));
        assertTrue(asked.body().contains("adk_request_confirmation"), "the second small payment waits: " + asked.body());
        assertEquals(BigInteger.ZERO, chain.usdc(to));
    }

    @Test
    @Execution(ExecutionMode.SAME_THREAD)
    @Order(7)
    void theZeroAddressTheTokenAndTheWalletItselfAreNoRecipients() throws Exception {
        java.util.Map<String, String> why = java.util.Map.of("0x0000000000000000000000000000000000000000", "the zero address",
                ItChain.USDC, "the USDC contract itself", WALLET.getAddress(), "the payment wallet itself");
        for (java.util.Map.Entry<String, String> to : why.entrySet()) {
            JsonNode refused = turn("payment_send", "{\"to\":\"" + to.getKey() + "\",\"amount\":\"0.01\",\"purpose\":\"lost\"}")
                    .answer;
            assertTrue(refused.path("error").asText().contains(to.getValue()), to + ": " + refused);
        }
        assertFalse(call("GET", "api/admin/payment", null).body().contains("\"lost\""), "nothing was stored for them");
    }

    /** A seller of x402 v2: 402 with PAYMENT-REQUIRED, then settles the authorization on the chain and serves. */
    private static HttpServer shop() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/report", PaymentIT::sell);
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sell(HttpExchange exchange) throws IOException {
        String signature = exchange.getRequestHeaders().getFirst("PAYMENT-SIGNATURE");
        SELLER_SAW.add(signature == null ? "asked" : "paid");
        try {
            if (signature == null) {
                ObjectNode required = TestJson.MAPPER.createObjectNode().put("x402Version", 2).put("error", "payment required");
                required.putObject("resource").put("url", "http://127.0.0.1/report").put("description", "a report");
                required.putArray("accepts").addObject().put("scheme", "exact").put("network", "eip155:84532").put("amount", "20000")
                        .put("asset", ItChain.USDC).put("payTo", SELLER).put("maxTimeoutSeconds", 120)
                        .putObject("extra").put("name", "USDC").put("version", "2");
                exchange.getResponseHeaders().add("PAYMENT-REQUIRED",
                        Base64.getEncoder().encodeToString(required.toString().getBytes(StandardCharsets.UTF_8)));
                exchange.sendResponseHeaders(402, -1);
                return;
            }
            JsonNode paid = TestJson.MAPPER.readTree(Base64.getDecoder().decode(signature));
            JsonNode auth = paid.path("payload").path("authorization");
            byte[] sig = Numeric.hexStringToByteArray(paid.path("payload").path("signature").asText());
            List<Type> args = List.of(new Address(auth.path("from").asText()), new Address(auth.path("to").asText()),
                    new Uint256(new BigInteger(auth.path("value").asText())), new Uint256(new BigInteger(auth.path("validAfter").asText())),
                    new Uint256(new BigInteger(auth.path("validBefore").asText())),
                    new Bytes32(Numeric.hexStringToByteArray(auth.path("nonce").asText())), new Uint8(sig[64] & 0xff),
                    new Bytes32(java.util.Arrays.copyOfRange(sig, 0, 32)), new Bytes32(java.util.Arrays.copyOfRange(sig, 32, 64)));
            String hash = chain.transact(ItChain.ACCOUNT0, ItChain.USDC, FunctionEncoder.encode(new Function(
                    "transferWithAuthorization", args, List.of())));
            JsonNode receipt = chain.rpc("eth_getTransactionReceipt", hash);
            for (int i = 0; i < 100 && receipt.isNull(); i++) { // Anvil mines just after it answers
                Thread.sleep(100);
                receipt = chain.rpc("eth_getTransactionReceipt", hash);
            }
            boolean settled = "0x1".equals(receipt.path("status").asText());
            ObjectNode response = TestJson.MAPPER.createObjectNode().put("success", settled).put("transaction", hash)
                    .put("network", "eip155:84532").put("payer", auth.path("from").asText());
            exchange.getResponseHeaders().add("PAYMENT-RESPONSE",
                    Base64.getEncoder().encodeToString(response.toString().getBytes(StandardCharsets.UTF_8)));
            byte[] body = (settled ? "the premium report" : "not paid").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(settled ? 200 : 402, body.length);
            exchange.getResponseBody().write(body);
        } catch (RuntimeException | InterruptedException e) {
            byte[] body = ("seller failed: " + e).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(500, body.length);
            exchange.getResponseBody().write(body);
        } finally {
            exchange.close();
        }
    }
}
