package ai.lango.payment;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;

/**
 * An EIP-3009 transferWithAuthorization, signed as EIP-712 typed data: what x402's "exact" scheme
 * pays with. The domain is the token's own — name and version as the contract reports them ("USDC"
 * and "2" on Base Sepolia, "USD Coin" on Base): a wrong one signs something the token rejects.
 */
public record TransferAuthorization(Domain domain, String from, String to, BigInteger value, BigInteger validAfter,
                                    BigInteger validBefore, byte[] nonce) {

    private static final byte[] DOMAIN_TYPE = Hash.sha3(
            "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)".getBytes(StandardCharsets.UTF_8));
    private static final byte[] TRANSFER_TYPE = Hash.sha3(("TransferWithAuthorization(address from,address to,uint256 value,"
            + "uint256 validAfter,uint256 validBefore,bytes32 nonce)").getBytes(StandardCharsets.UTF_8));

    /** The token's EIP-712 domain. */
    public record Domain(String name, String version, long chainId, String verifyingContract) {

        public byte[] separator() {
            return Hash.sha3(concat(DOMAIN_TYPE, Hash.sha3(name.getBytes(StandardCharsets.UTF_8)),
                    Hash.sha3(version.getBytes(StandardCharsets.UTF_8)), word(BigInteger.valueOf(chainId)), address(verifyingContract)));
        }
    }

    public TransferAuthorization {
        if (nonce.length != 32) {
            throw new IllegalArgumentException("an EIP-3009 nonce has 32 bytes");
        }
        nonce = nonce.clone();
    }

    /** The 32 bytes that are signed: keccak256(0x1901 ‖ domain separator ‖ struct hash). */
    public byte[] digest() {
        byte[] struct = Hash.sha3(concat(TRANSFER_TYPE, address(from), address(to), word(value), word(validAfter),
                word(validBefore), nonce));
        return Hash.sha3(concat(new byte[] {0x19, 0x01}, domain.separator(), struct));
    }

    /** The 65-byte signature r ‖ s ‖ v (v 27 or 28), as a 0x hex string. */
    public String sign(ECKeyPair key) {
        Sign.SignatureData signature = Sign.signMessage(digest(), key, false);
        return Numeric.toHexString(concat(signature.getR(), signature.getS(), signature.getV()));
    }

    @Override
    public byte[] nonce() {
        return nonce.clone();
    }

    private static byte[] word(BigInteger value) {
        return Numeric.toBytesPadded(value, 32);
    }

    private static byte[] address(String address) {
        return Numeric.toBytesPadded(Numeric.toBigInt(address), 32);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
