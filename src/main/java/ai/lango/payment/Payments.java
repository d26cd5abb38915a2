package ai.lango.payment;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.net.egress.Egress;
import ai.lango.net.egress.HostPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * Payments from the server's wallet, held to the limits before anything is signed. A send is
 * reserved against the day's limit (stored, counting), signed with the next nonce (stored with its
 * hash before it leaves), sent, and followed to its receipt; a crash anywhere leaves a row that
 * {@link #reconcile()} settles from the chain, never by sending again.
 */
@ApplicationScoped
public class Payments {

    private static final Logger LOG = MaskedLogs.of(Payments.class);
    /** Gas for an ERC-20 transfer, with room: USDC's takes about 40,000 to 60,000. */
    private static final BigInteger GAS_LIMIT = BigInteger.valueOf(120_000);
    /** How long a send waits for its receipt before it answers "sent, not mined yet". */
    private static final Duration RECEIPT_WAIT = Duration.ofSeconds(30);
    /** A signed or reserved payment the chain never saw, this old, was never sent: it is released. */
    private static final long UNSENT_AFTER_MILLIS = Duration.ofMinutes(2).toMillis();
    /** A sent one the chain no longer knows, this old, was dropped: released. */
    private static final long DROPPED_AFTER_MILLIS = Duration.ofMinutes(10).toMillis();

    @Inject
    LangoSettings.Payment settings;

    @Inject
    PaymentLedger ledger;

    @Inject
    Wallet wallet;

    /** Where an x402 fetch may go, and the proxy it goes through. */
    @Inject
    Egress web;

    private volatile ChainRpc rpc;

    public boolean enabled() {
        return settings.enabled();
    }

    public LangoSettings.Payment settings() {
        return settings;
    }

    public ChainRpc rpc() {
        ChainRpc client = rpc;
        if (client == null) {
            client = new ChainRpc(settings.rpcUrl().orElseThrow(() -> new IllegalStateException("lango.payment.rpc-url is not set")));
            rpc = client;
        }
        return client;
    }

    public PaymentLimits limits() {
        return new PaymentLimits(Usdc.parse(settings.maxPerTx().toPlainString()), Usdc.parse(settings.maxDaily().toPlainString()),
                Usdc.parse(settings.autoApproveBelow().toPlainString()), Usdc.parse(settings.x402MaxAutoPay().toPlainString()));
    }

    public Wallet wallet() {
        return wallet;
    }

    public PaymentLedger ledger() {
        return ledger;
    }

    /** The wallet's signer, or a clear error when there is none. */
    Credentials signer() throws PaymentException {
        return wallet.credentials().orElseThrow(() -> new PaymentException("there is no wallet yet: payment_create_wallet makes"
                + " one, or an operator imports one (PUT /api/admin/payment/wallet)"));
    }

    /** The wallet's USDC in base units. */
    public BigInteger usdcBalance(String address) throws ChainRpc.ChainException {
        String data = FunctionEncoder.encode(new Function("balanceOf", List.of(new Address(address)), List.of()));
        String answer = rpc().read(settings.usdcContract(), data);
        return answer.length() <= 2 ? BigInteger.ZERO : Numeric.toBigInt(answer);
    }

    /**
     * What the limits say of paying {@code amount} now, with today's spend so far: what decides
     * whether a call asks a person first (one the limits refuse is refused at once, without asking).
     */
    public PaymentLimits.Decision decide(BigInteger amount, boolean x402, String userId) {
        BigInteger today = wallet.address().map(a -> ledger.committed(a, PaymentLedger.today())).orElse(BigInteger.ZERO);
        return limits().decide(amount, today, unapproved(userId, x402), x402);
    }

    /** What {@code userId}'s turns paid without a person's approval in the last 24 hours, of the kind. */
    private BigInteger unapproved(String userId, boolean x402) {
        return userId == null ? BigInteger.ZERO : ledger.unapprovedSince(userId, x402 ? Payment.Kind.X402 : Payment.Kind.SEND,
                System.currentTimeMillis() - UNAPPROVED_WINDOW.toMillis());
    }

    /** How far back the payments a person did not approve count towards the approval threshold. */
    static final java.time.Duration UNAPPROVED_WINDOW = java.time.Duration.ofHours(24);

    /**
     * Refuses a recipient no payment should go to: the zero address (burnt), the token's own contract
     * (lost), the wallet itself (a payment to nowhere that still spends the limit and the gas).
     */
    private void requireRecipient(String to, String from) throws PaymentException {
        if (to.equalsIgnoreCase("0x0000000000000000000000000000000000000000")) {
            throw new PaymentException("refused: the zero address burns what it is sent");
        }
        if (to.equalsIgnoreCase(settings.usdcContract())) {
            throw new PaymentException("refused: " + to + " is the USDC contract itself; what is sent to it is lost");
        }
        if (to.equalsIgnoreCase(from)) {
            throw new PaymentException("refused: " + to + " is the payment wallet itself");
        }
    }

    /**
     * Reserves {@code amount} against today's limit, or says which limit it breaks; {@code approved}:
     * whether a person approved this payment.
     */
    String reserve(Payment.Kind kind, String userId, String sessionKey, String from, String to, BigInteger amount,
                   String purpose, boolean approved) throws PaymentException {
        requireRecipient(to, from);
        PaymentLimits limits = limits();
        boolean x402 = kind == Payment.Kind.X402;
        PaymentLimits.Decision decision = limits.decide(amount, ledger.committed(from, PaymentLedger.today()),
                approved ? BigInteger.ZERO : unapproved(userId, x402), x402);
        if (decision.kind() == PaymentLimits.Decision.Kind.REFUSE) {
            throw new PaymentException("refused: " + decision.reason());
        }
        if (decision.kind() == PaymentLimits.Decision.Kind.ASK && !approved) {
            // Another unapproved payment of the user's went through since this call was let through.
            throw new PaymentException("not paid: " + decision.reason() + "; call it again and a person will be asked");
        }
        return ledger.reserve(kind, userId, sessionKey, from, settings.chainId(), to, amount, purpose, limits.maxDaily(), approved)
                .orElseThrow(() -> new PaymentException("refused: " + limits.decide(amount,
                        ledger.committed(from, PaymentLedger.today()), kind == Payment.Kind.X402).reason()));
    }

    /**
     * Sends {@code amount} of USDC to {@code to}, approved by a person or not; the payment as stored
     * when it was mined, or as far as it got.
     */
    public Payment send(String userId, String sessionKey, String to, BigInteger amount, String purpose, boolean approved)
            throws PaymentException {
        Credentials signer = signer();
        String from = EvmAddress.checksummed(signer.getAddress());
        String id = reserve(Payment.Kind.SEND, userId, sessionKey, from, to, amount, purpose, approved);
        String[] signed = new String[2];
        try {
            BigInteger pending = rpc().pendingNonce(from);
            Erc20.Gas gas = rpc().gas(GAS_LIMIT);
            ledger.withNextNonce(from, pending, (nonce, recorder) -> {
                signed[0] = Erc20.signedTransfer(settings.chainId(), nonce, gas, settings.usdcContract(), to, amount, signer);
                signed[1] = Hash.sha3(signed[0]);
                recorder.signed(id, nonce, signed[1]);
                return null;
            });
        } catch (Exception e) {
            ledger.move(id, Payment.Status.RESERVED, Payment.Status.FAILED, null, null, "not signed: " + e.getMessage(), null);
            throw new PaymentException("not sent: " + e.getMessage());
        }
        try {
            rpc().send(signed[0], signed[1]);
        } catch (ChainRpc.ChainException e) {
            if (e.getMessage().contains("could not be reached")) {
                // It may or may not have reached the node: the reconciler finds out by its hash and nonce.
                throw new PaymentException("the chain could not be reached while sending; transaction " + signed[1]
                        + " may or may not have been sent: payment_history will say (it is never sent twice)");
            }
            ledger.move(id, Payment.Status.SIGNED, Payment.Status.FAILED, null, null, "refused by the chain: " + e.getMessage(), null);
            throw new PaymentException("the chain refused the transaction: " + e.getMessage());
        }
        ledger.move(id, Payment.Status.SIGNED, Payment.Status.SENT, null, null, null, null);
        long until = System.currentTimeMillis() + RECEIPT_WAIT.toMillis();
        while (System.currentTimeMillis() < until) {
            try {
                Optional<ChainRpc.Receipt> receipt = rpc().receipt(signed[1]);
                if (receipt.isPresent()) {
                    settle(id, receipt.get());
                    break;
                }
                Thread.sleep(250);
            } catch (ChainRpc.ChainException e) {
                break; // the reconciler follows it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return ledger.find(id).orElseThrow();
    }

    private void settle(String id, ChainRpc.Receipt receipt) {
        if (receipt.success()) {
            ledger.move(id, Payment.Status.SENT, Payment.Status.CONFIRMED, null, null, "mined in block " + receipt.block(), null);
            ledger.move(id, Payment.Status.SIGNED, Payment.Status.CONFIRMED, null, null, "mined in block " + receipt.block(), null);
        } else {
            String why = "reverted in block " + receipt.block() + " (no USDC moved)";
            ledger.move(id, Payment.Status.SENT, Payment.Status.FAILED, null, null, why, null);
            ledger.move(id, Payment.Status.SIGNED, Payment.Status.FAILED, null, null, why, null);
        }
    }

    /** What an x402 fetch came to: the answer, the settlement, the payment; or the price a person must approve first. */
    public record Fetched(int status, String body, Optional<JsonNode> settlement, Optional<Payment> payment,
                          Optional<BigInteger> priceToApprove, String note) {
    }

    /** The most of an answer's body a tool result carries. */
    private static final int BODY_MAX_CHARS = 16_000;

    /**
     * Fetches {@code url}; on an x402 402 pays what it asks — within the limits, and above x402
     * max-auto-pay only when {@code approved} (the amount a person approved) covers it — and fetches again.
     */
    public Fetched x402(String userId, String sessionKey, String url, String method, String body, BigInteger approved,
                        boolean approvedByPerson) throws PaymentException {
        HostPolicy.Verdict verdict = web.policy().check(url);
        if (!verdict.allowed()) {
            throw new PaymentException("refused: " + verdict.refusal());
        }
        HttpClient http;
        try {
            http = web.guardedHttp();
        } catch (java.io.IOException e) {
            throw new PaymentException("no connection could be opened: " + e.getMessage());
        }
        HttpResponse<String> first = fetch(http, url, method, body, null);
        if (first.statusCode() != 402) {
            return new Fetched(first.statusCode(), clip(first.body()), Optional.empty(), Optional.empty(), Optional.empty(),
                    "no payment was asked for");
        }
        String header = first.headers().firstValue(X402.REQUIRED).orElseThrow(() -> new PaymentException(
                "the answer is 402 without a PAYMENT-REQUIRED header: not x402 version 2, nothing paid"));
        X402.Requirement requirement = X402.choose(header, settings.chainId(), settings.usdcContract());
        Credentials signer = signer();
        String from = EvmAddress.checksummed(signer.getAddress());
        PaymentLimits.Decision decision = limits().decide(requirement.amount(), ledger.committed(from, PaymentLedger.today()),
                unapproved(userId, true), true);
        if (decision.kind() == PaymentLimits.Decision.Kind.REFUSE) {
            throw new PaymentException("refused: " + decision.reason());
        }
        if (decision.kind() == PaymentLimits.Decision.Kind.ASK && (approved == null || approved.compareTo(requirement.amount()) < 0)) {
            return new Fetched(402, "", Optional.empty(), Optional.empty(), Optional.of(requirement.amount()), decision.reason()
                    + ". Nothing was paid; call payment_x402_fetch again with approve_amount \"" + Usdc.format(requirement.amount())
                    + "\" and a person will be asked.");
        }
        String id = reserve(Payment.Kind.X402, userId, sessionKey, from, requirement.payTo(), requirement.amount(), "x402: " + url,
                approvedByPerson);
        TransferAuthorization authorization;
        String signature;
        long validBefore;
        try {
            TransferAuthorization.Domain domain = domain(requirement);
            long now = System.currentTimeMillis() / 1000;
            validBefore = now + requirement.maxTimeoutSeconds();
            byte[] nonce = new byte[32];
            RANDOM.nextBytes(nonce);
            authorization = new TransferAuthorization(domain, from, requirement.payTo(), requirement.amount(),
                    BigInteger.valueOf(Math.max(0, now - 600)), BigInteger.valueOf(validBefore), nonce);
            signature = authorization.sign(signer.getEcKeyPair());
        } catch (RuntimeException | ChainRpc.ChainException e) {
            ledger.move(id, Payment.Status.RESERVED, Payment.Status.FAILED, null, null, "not signed: " + e.getMessage(), null);
            throw new PaymentException("not paid: " + e.getMessage());
        }
        ledger.authorized(id, Numeric.toHexString(authorization.nonce()), validBefore);
        HttpResponse<String> paid = fetch(http, url, method, body, X402.signatureHeader(requirement, authorization, signature));
        Optional<JsonNode> settlement = X402.settlement(paid.headers().firstValue(X402.RESPONSE).orElse(null));
        String note;
        if (paid.statusCode() / 100 == 2 && settlement.map(s -> s.path("success").asBoolean(false)).orElse(false)) {
            ledger.move(id, Payment.Status.AUTHORIZED, Payment.Status.SETTLED, null,
                    settlement.get().path("transaction").textValue(), "settled by the seller", null);
            note = "paid " + Usdc.format(requirement.amount()) + " USDC to " + requirement.payTo();
        } else {
            note = "the seller did not confirm the payment (HTTP " + paid.statusCode() + settlement.map(s -> ", "
                    + s.path("errorReason").asText("")).orElse("") + "); the authorization counts against today's limit until"
                    + " it is settled or expires";
        }
        return new Fetched(paid.statusCode(), clip(paid.body()), settlement, ledger.find(id), Optional.empty(), note);
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    /** The token's EIP-712 domain: its own name() and version() on the chain, else what the 402 says. */
    private TransferAuthorization.Domain domain(X402.Requirement requirement) throws ChainRpc.ChainException, PaymentException {
        Optional<String> name = tokenText("name").or(requirement::name);
        Optional<String> version = tokenText("version").or(requirement::version);
        if (name.isEmpty() || version.isEmpty()) {
            throw new PaymentException("the token's EIP-712 name and version are unknown (neither the contract nor the 402 says)");
        }
        return new TransferAuthorization.Domain(name.get(), version.get(), settings.chainId(), settings.usdcContract());
    }

    private Optional<String> tokenText(String function) {
        try {
            String answer = rpc().read(settings.usdcContract(), FunctionEncoder.encode(new Function(function, List.of(), List.of())));
            List<org.web3j.abi.datatypes.Type> decoded = org.web3j.abi.FunctionReturnDecoder.decode(answer,
                    org.web3j.abi.Utils.convert(List.of(org.web3j.abi.TypeReference.create(org.web3j.abi.datatypes.Utf8String.class))));
            return decoded.isEmpty() ? Optional.empty() : Optional.of(decoded.get(0).getValue().toString()).filter(t -> !t.isEmpty());
        } catch (ChainRpc.ChainException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static HttpResponse<String> fetch(HttpClient http, String url, String method, String body, String signature)
            throws PaymentException {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(java.net.URI.create(url)).timeout(Duration.ofSeconds(60))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            if (signature != null) {
                request.header(X402.SIGNATURE, signature);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new PaymentException("the fetch failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PaymentException("interrupted");
        }
    }

    private static String clip(String body) {
        return body.length() <= BODY_MAX_CHARS ? body : body.substring(0, BODY_MAX_CHARS) + "\n[cut: " + body.length()
                + " characters in all]";
    }

    /**
     * Settles every payment whose outcome is not known, from the chain alone: mined ones by their
     * receipt, x402 authorizations by the token's record of their nonce; one the chain never saw is
     * released once it is old enough, and never sent again.
     */
    public void reconcile() {
        Optional<String> address = wallet.address();
        if (!settings.enabled() || address.isEmpty()) {
            return;
        }
        long now = System.currentTimeMillis();
        for (Payment payment : ledger.open(address.get())) {
            long age = now - payment.updatedAt().toEpochMilli();
            try {
                switch (payment.status()) {
                    case RESERVED -> {
                        if (age > UNSENT_AFTER_MILLIS) {
                            ledger.move(payment.id(), Payment.Status.RESERVED, Payment.Status.FAILED, null, null,
                                    "never signed: the server stopped first", null);
                        }
                    }
                    case SIGNED, SENT -> reconcileSend(payment, age);
                    case AUTHORIZED -> reconcileAuthorization(payment, now);
                    default -> {
                    }
                }
            } catch (ChainRpc.ChainException e) {
                LOG.fine("payment " + payment.id() + " not reconciled yet: " + e.getMessage());
                return; // the chain is not reachable: next time
            }
        }
    }

    private void reconcileSend(Payment payment, long age) throws ChainRpc.ChainException {
        Optional<ChainRpc.Receipt> receipt = rpc().receipt(payment.txHash());
        if (receipt.isPresent()) {
            settle(payment.id(), receipt.get());
            LOG.info("payment " + payment.id() + " reconciled from the chain: " + (receipt.get().success() ? "mined" : "reverted"));
            return;
        }
        if (rpc().knows(payment.txHash())) {
            ledger.move(payment.id(), Payment.Status.SIGNED, Payment.Status.SENT, null, null, null, null);
            return;
        }
        boolean nonceUsed = rpc().minedNonce(payment.wallet()).compareTo(new BigInteger(payment.nonce())) > 0;
        if (nonceUsed || age > (payment.status() == Payment.Status.SIGNED ? UNSENT_AFTER_MILLIS : DROPPED_AFTER_MILLIS)) {
            String why = nonceUsed ? "its nonce went to another transaction: it can never be mined"
                    : "the chain never had it; not sent again";
            ledger.move(payment.id(), payment.status(), Payment.Status.FAILED, null, null, why, null);
        }
    }

    private void reconcileAuthorization(Payment payment, long now) throws ChainRpc.ChainException {
        String data = FunctionEncoder.encode(new Function("authorizationState", List.of(new Address(payment.wallet()),
                new Bytes32(Numeric.hexStringToByteArray(payment.nonce()))), List.of()));
        String answer = rpc().read(settings.usdcContract(), data);
        if (answer.length() > 2 && Numeric.toBigInt(answer).signum() != 0) {
            ledger.move(payment.id(), Payment.Status.AUTHORIZED, Payment.Status.SETTLED, null, null, "settled on the chain", null);
        } else if (payment.validBefore() != null && now / 1000 > payment.validBefore() + 60) {
            ledger.move(payment.id(), Payment.Status.AUTHORIZED, Payment.Status.FAILED, null, null,
                    "the authorization expired unused", null);
        }
    }
}
