package ai.lango.payment;

import ai.lango.net.http.HttpPeers;
import ai.lango.net.http.LimitedBody;
import ai.lango.net.jsonrpc.JsonRpc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.web3j.utils.Numeric;

/**
 * The few Ethereum JSON-RPC calls payments need, over java.net.http: nonces, fees, sending a signed
 * transaction, receipts, balances and read-only contract calls. An error of the node is a
 * {@link ChainException} with its message.
 */
public final class ChainRpc {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** An answer larger than this is no node's answer to these calls: it is not read into memory. */
    static final int MAX_ANSWER_BYTES = 8 * 1024 * 1024;

    private final URI endpoint;
    private final HttpClient http = HttpPeers.client(Duration.ofSeconds(10), HttpClient.Redirect.NEVER);
    private final AtomicLong ids = new AtomicLong();

    public ChainRpc(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** A failure of the chain or of reaching it, with a message for the model. */
    public static final class ChainException extends Exception {
        public ChainException(String message) {
            super(message);
        }
    }

    /** A mined transaction's outcome: whether it succeeded and in which block. */
    public record Receipt(String hash, boolean success, BigInteger block) {
    }

    public JsonNode call(String method, Object... params) throws ChainException {
        ArrayNode array = JSON.createArrayNode();
        for (Object param : params) {
            array.add(JSON.valueToTree(param));
        }
        ObjectNode request = JsonRpc.request(ids.incrementAndGet(), method, array);
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(endpoint).timeout(TIMEOUT)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(request.toString()))
                    .build(), LimitedBody.handler(MAX_ANSWER_BYTES));
            if (response.statusCode() != 200) {
                throw new ChainException("the chain's RPC endpoint answered HTTP " + response.statusCode() + " to " + method);
            }
            JsonNode body = JSON.readTree(new String(response.body(), StandardCharsets.UTF_8));
            Optional<JsonNode> error = JsonRpc.errorOf(body);
            if (error.isPresent()) {
                throw new ChainException(method + ": " + error.get().path("message").asText(error.get().toString()));
            }
            return body.path("result");
        } catch (IOException e) {
            throw new ChainException("the chain's RPC endpoint could not be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChainException("interrupted");
        }
    }

    public long chainId() throws ChainException {
        return quantity(call("eth_chainId")).longValueExact();
    }

    /** The next nonce of {@code address}, counting its pending transactions. */
    public BigInteger pendingNonce(String address) throws ChainException {
        return quantity(call("eth_getTransactionCount", address, "pending"));
    }

    /** The nonces {@code address} has used in mined blocks. */
    public BigInteger minedNonce(String address) throws ChainException {
        return quantity(call("eth_getTransactionCount", address, "latest"));
    }

    public BigInteger ethBalance(String address) throws ChainException {
        return quantity(call("eth_getBalance", address, "latest"));
    }

    /** Fees for a transaction now: the tip the node suggests, and twice the latest base fee plus it. */
    public Erc20.Gas gas(BigInteger limit) throws ChainException {
        BigInteger tip;
        try {
            tip = quantity(call("eth_maxPriorityFeePerGas"));
        } catch (ChainException e) {
            tip = BigInteger.valueOf(1_000_000);
        }
        JsonNode latest = call("eth_getBlockByNumber", "latest", false);
        BigInteger base = latest.hasNonNull("baseFeePerGas") ? quantity(latest.path("baseFeePerGas")) : quantity(call("eth_gasPrice"));
        return new Erc20.Gas(limit, tip, base.shiftLeft(1).add(tip));
    }

    /** Sends a signed transaction; its hash. "already known" counts as sent. */
    public String send(String signedTransaction, String expectedHash) throws ChainException {
        try {
            return call("eth_sendRawTransaction", signedTransaction).asText();
        } catch (ChainException e) {
            if (e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("already known")) {
                return expectedHash;
            }
            throw e;
        }
    }

    /** The receipt of a mined transaction; empty while it is not mined (or unknown). */
    public Optional<Receipt> receipt(String hash) throws ChainException {
        JsonNode receipt = call("eth_getTransactionReceipt", hash);
        if (receipt.isNull() || receipt.isMissingNode()) {
            return Optional.empty();
        }
        return Optional.of(new Receipt(hash, "0x1".equals(receipt.path("status").asText()), quantity(receipt.path("blockNumber"))));
    }

    /** Whether the node knows the transaction at all (pending or mined). */
    public boolean knows(String hash) throws ChainException {
        JsonNode transaction = call("eth_getTransactionByHash", hash);
        return !(transaction.isNull() || transaction.isMissingNode());
    }

    /** A read-only call of {@code contract} with ABI-encoded {@code data}; the returned bytes as hex. */
    public String read(String contract, String data) throws ChainException {
        ObjectNode call = JSON.createObjectNode().put("to", contract).put("data", data);
        return call("eth_call", call, "latest").asText();
    }

    static BigInteger quantity(JsonNode node) throws ChainException {
        String text = node.asText("");
        if (!text.startsWith("0x")) {
            throw new ChainException("the chain answered \"" + text + "\" where a number was expected");
        }
        return text.length() == 2 ? BigInteger.ZERO : Numeric.toBigInt(text);
    }
}
