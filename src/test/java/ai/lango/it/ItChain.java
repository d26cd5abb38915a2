package ai.lango.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.utils.Numeric;

/**
 * A local chain for the payment tests: Anvil (from npm, installed into .ci/chain by .ci/run) as
 * Base Sepolia (chain 84532), with a test USDC (src/test/resources/chain/TestUsdc.sol, compiled by
 * npm's solc) put at USDC's real address. Anvil's first accounts are funded and unlocked.
 */
final class ItChain implements AutoCloseable {

    static final Path MODULES = Path.of(".ci", "chain", "node_modules").toAbsolutePath();
    static final Path ANVIL = MODULES.resolve(".bin/anvil");
    static final String USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
    /** Anvil's well-known development accounts: funded with ETH on every Anvil, nowhere else. */
    static final String ACCOUNT0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Process anvil;
    private final int port;

    private ItChain(Process anvil, int port) {
        this.anvil = anvil;
        this.port = port;
    }

    /** Whether Anvil and solc are installed (.ci/run installs them; without them the payment tests skip). */
    static boolean available() {
        return Files.isExecutable(ANVIL) && Files.isDirectory(MODULES.resolve("solc"));
    }

    /** Starts Anvil on a free port and puts the test USDC at USDC's address. */
    static ItChain start() {
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Process process = new ProcessBuilder(ANVIL.toString(), "--port", Integer.toString(port), "--chain-id", "84532",
                    "--silent").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            ItChain chain = new ItChain(process, port);
            long until = System.currentTimeMillis() + 30_000;
            while (true) {
                try {
                    chain.rpc("eth_chainId");
                    break;
                } catch (IOException e) {
                    if (System.currentTimeMillis() > until || !process.isAlive()) {
                        throw new IllegalStateException("Anvil did not start", e);
                    }
                    Thread.sleep(100);
                }
            }
            chain.rpc("anvil_setCode", USDC, compiledUsdc());
            return chain;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The deployed bytecode of the test USDC, compiled now. */
    private static String compiledUsdc() throws IOException, InterruptedException {
        Path source = Path.of("src", "test", "resources", "chain").toAbsolutePath();
        ProcessBuilder compile = new ProcessBuilder("node", source.resolve("compile.js").toString(),
                source.resolve("TestUsdc.sol").toString()).redirectError(ProcessBuilder.Redirect.INHERIT);
        compile.environment().put("NODE_PATH", MODULES.toString());
        Process process = compile.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("solc failed: " + out);
        }
        return JSON.readTree(out).path("deployed").asText();
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    JsonNode rpc(String method, Object... params) throws IOException, InterruptedException {
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        ArrayNode array = request.putArray("params");
        for (Object param : params) {
            array.add(JSON.valueToTree(param));
        }
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url())).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString())).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (body.hasNonNull("error")) {
            throw new IllegalStateException(method + ": " + body.path("error"));
        }
        return body.path("result");
    }

    /** Sends a transaction from an unlocked account to {@code to} with this call data; its hash, once mined (when mining is on). */
    String transact(String from, String to, String data) throws IOException, InterruptedException {
        String hash = rpc("eth_sendTransaction", Map.of("from", from, "to", to, "data", data)).asText();
        for (int i = 0; i < 100 && rpc("eth_getTransactionReceipt", hash).isNull(); i++) {
            Thread.sleep(50); // Anvil mines just after it answers
        }
        return hash;
    }

    String call(String function, List<Type> args) throws IOException, InterruptedException {
        return rpc("eth_call", Map.of("to", USDC, "data", FunctionEncoder.encode(new Function(function, args, List.of()))), "latest")
                .asText();
    }

    BigInteger usdc(String address) throws IOException, InterruptedException {
        return Numeric.toBigInt(call("balanceOf", List.of(new Address(address))));
    }

    void mint(String address, BigInteger units) throws IOException, InterruptedException {
        transact(ACCOUNT0, USDC, FunctionEncoder.encode(new Function("mint", List.of(new Address(address), new Uint256(units)),
                List.of())));
    }

    void fundEth(String address) throws IOException, InterruptedException {
        rpc("anvil_setBalance", address, "0x56BC75E2D63100000"); // 100 ETH
    }

    void automine(boolean on) throws IOException, InterruptedException {
        rpc("evm_setAutomine", on);
    }

    void mine() throws IOException, InterruptedException {
        rpc("evm_mine");
    }

    /** The whole tree: {@code .bin/anvil} is npm's launcher, and Anvil itself runs as its child. */
    @Override
    public void close() {
        anvil.descendants().forEach(ProcessHandle::destroyForcibly);
        anvil.destroyForcibly();
    }
}
