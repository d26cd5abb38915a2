package ai.lango.payment;

import java.math.BigInteger;
import java.time.Instant;

/** One payment as the ledger holds it. */
public record Payment(String id, Kind kind, String userId, String sessionKey, String wallet, long chainId, String to,
                      BigInteger amount, String purpose, String day, Status status, String nonce, String txHash,
                      String detail, Long validBefore, Instant createdAt, Instant updatedAt) {

    /** An ERC-20 transfer the wallet sends, or an x402 authorization a seller settles. */
    public enum Kind { SEND, X402 }

    public enum Status {
        RESERVED, SIGNED, SENT, CONFIRMED, AUTHORIZED, SETTLED, FAILED;

        /** Whether the payment still counts, or may yet: everything but a failure. */
        public boolean counts() {
            return this != FAILED;
        }

        /** Whether its outcome is known. */
        public boolean done() {
            return this == CONFIRMED || this == SETTLED || this == FAILED;
        }
    }
}
