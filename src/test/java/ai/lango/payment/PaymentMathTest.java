package ai.lango.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/** Amounts, addresses, EIP-712 digests and signed transactions, against vectors made by ethers.js 6 (an independent implementation). */
class PaymentMathTest {

    /** A throwaway key of web3j's and ethers' documentation: never funded anywhere that matters. */
    private static final Credentials KEY = Credentials.create("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
    private static final String SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
    private static final String TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

    @Test
    void amountsAreExactDecimalsOfAtMostSixPlaces() {
        assertEquals(BigInteger.valueOf(50_000), Usdc.parse("0.05"));
        assertEquals(BigInteger.valueOf(100_000), Usdc.parse("0.1"));
        assertEquals(BigInteger.valueOf(1), Usdc.parse("0.000001"));
        assertEquals(BigInteger.valueOf(12_500_000), Usdc.parse(" 12.5 "));
        assertEquals(BigInteger.valueOf(100_000), Usdc.parse((Object) 0.1d), "a JSON number read as a double: what was written");
        assertEquals(BigInteger.valueOf(300_000), Usdc.parse((Object) new BigDecimal("0.30")));
        for (String bad : List.of("0.0000001", "-1", "1e3", "1,000", ".5", "01", "", "NaN", "0x10", "+1")) {
            assertThrows(IllegalArgumentException.class, () -> Usdc.parse(bad), bad);
        }
        assertEquals("0.05", Usdc.format(BigInteger.valueOf(50_000)));
        assertEquals("1.00", Usdc.format(BigInteger.valueOf(1_000_000)));
        assertEquals("0.000001", Usdc.format(BigInteger.ONE));
    }

    @Test
    void addressesAreChecksummedAndAMistypedOneRefused() {
        assertEquals(TO, EvmAddress.checksummed("0x209693bc6afc0c5328ba36faf03c514ef312287c"));
        assertEquals(TO, EvmAddress.checksummed(TO));
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> EvmAddress.checksummed("0x209693bC6afc0C5328bA36FaF03C514EF312287C"));
        assertTrue(wrong.getMessage().contains("checksum"), wrong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EvmAddress.checksummed("0x1234"));
        assertThrows(IllegalArgumentException.class, () -> EvmAddress.checksummed("0x0000000000000000000000000000000000000000"));
    }

    private static TransferAuthorization authorization(TransferAuthorization.Domain domain) {
        return new TransferAuthorization(domain, KEY.getAddress(), TO, BigInteger.valueOf(50_000), BigInteger.ZERO,
                BigInteger.valueOf(1_764_000_000L), Numeric.hexStringToByteArray("ab".repeat(32)));
    }

    @Test
    void theEip712DigestAndSignatureOfATransferAuthorizationMatchEthers() {
        TransferAuthorization.Domain sepolia = new TransferAuthorization.Domain("USDC", "2", 84532, SEPOLIA_USDC);
        assertEquals("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23", KEY.getAddress());
        assertEquals("0x71f17a3b2ff373b803d70a5a07c046c1a2bc8e89c09ef722fcb047abe94c9818", Numeric.toHexString(sepolia.separator()));
        TransferAuthorization authorization = authorization(sepolia);
        assertEquals("0x61202b73bb120722d4bcbcf7256e63464dbe076a0509d4d2aa7741b1fbd2b901", Numeric.toHexString(authorization.digest()));
        assertEquals("0x5e93b1b7de8a4d272fbf29d31677e0a858d90932952e33d40e0344d7fbd36cf474649bbadfed749e20d81cc30dc2423ca23e9"
                + "19364176b3859dc5cbf0a8fa47f1b", authorization.sign(KEY.getEcKeyPair()));
    }

    @Test
    void baseMainnetsDomainNameSignsSomethingElse() {
        TransferAuthorization.Domain mainnet = new TransferAuthorization.Domain("USD Coin", "2", 8453,
                "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
        assertEquals("0x333d9c92efcf46580abb0645bc691c00be013ac9f75206ca6db8bd66261fe6c7",
                Numeric.toHexString(authorization(mainnet).digest()));
    }

    @Test
    void aSignedTransferTransactionMatchesEthersAndItsHashIsKnownBeforeSending() {
        assertEquals("0xa9059cbb000000000000000000000000209693bc6afc0c5328ba36faf03c514ef312287c"
                + "000000000000000000000000000000000000000000000000000000000000c350", Erc20.transferData(TO, BigInteger.valueOf(50_000)));
        String signed = Erc20.signedTransfer(84532, BigInteger.valueOf(7), new Erc20.Gas(BigInteger.valueOf(100_000),
                BigInteger.valueOf(1_000_000), BigInteger.valueOf(2_000_000_000L)), SEPOLIA_USDC, TO, BigInteger.valueOf(50_000), KEY);
        assertEquals("0x02f8b283014a3407830f42408477359400830186a094036cbd53842c5426634e7929541ec2318f3dcf7e80b844a9059cbb"
                + "000000000000000000000000209693bc6afc0c5328ba36faf03c514ef312287c000000000000000000000000000000000000000000000000"
                + "000000000000c350c001a04a7a5131c39a644715508c9a38c9c12680f55a8eaa8e58d1859ea5d1bdbdd916a02715b559f9eb742faf93ef48"
                + "d3214d78c1b86d8d1357fe8a355549aeabc9e3b4", signed);
        assertEquals("0xdf17133572f19eedfa5b80c01a983e0610611329ca334e70853ff63348bfc601", Hash.sha3(signed));
    }

    private static final PaymentLimits LIMITS = new PaymentLimits(Usdc.parse("1.00"), Usdc.parse("10.00"), Usdc.parse("0.10"),
            Usdc.parse("0.50"));

    @Test
    void limitsRunBelowAutoApproveAskFromItAndRefuseAboveMaxPerTxOrTheDaysRest() {
        assertEquals(PaymentLimits.Decision.Kind.RUN, LIMITS.decide(Usdc.parse("0.05"), BigInteger.ZERO, false).kind());
        assertEquals(PaymentLimits.Decision.Kind.ASK, LIMITS.decide(Usdc.parse("0.10"), BigInteger.ZERO, false).kind());
        assertEquals(PaymentLimits.Decision.Kind.ASK, LIMITS.decide(Usdc.parse("0.50"), BigInteger.ZERO, false).kind());
        PaymentLimits.Decision big = LIMITS.decide(Usdc.parse("5.00"), BigInteger.ZERO, false);
        assertEquals(PaymentLimits.Decision.Kind.REFUSE, big.kind());
        assertTrue(big.reason().contains("lango.payment.limits.max-per-tx (1.00 USDC)"), big.reason());
        PaymentLimits.Decision late = LIMITS.decide(Usdc.parse("0.05"), Usdc.parse("9.98"), false);
        assertEquals(PaymentLimits.Decision.Kind.REFUSE, late.kind());
        assertTrue(late.reason().contains("9.98 spent or in flight, 0.02 left"), late.reason());
        assertEquals(PaymentLimits.Decision.Kind.RUN, LIMITS.decide(Usdc.parse("0.02"), Usdc.parse("9.98"), false).kind());
    }

    @Test
    void x402PaysUpToItsOwnLimitWithoutAskingAndAboveItAsks() {
        assertEquals(PaymentLimits.Decision.Kind.RUN, LIMITS.decide(Usdc.parse("0.50"), BigInteger.ZERO, true).kind());
        assertEquals(PaymentLimits.Decision.Kind.ASK, LIMITS.decide(Usdc.parse("0.51"), BigInteger.ZERO, true).kind());
        assertEquals(PaymentLimits.Decision.Kind.REFUSE, LIMITS.decide(Usdc.parse("0.50"), Usdc.parse("9.90"), true).kind());
    }
}
