package ai.lango.payment;

import java.math.BigInteger;
import java.util.List;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.utils.Numeric;

/** An ERC-20 transfer as a signed EIP-1559 transaction, ready for eth_sendRawTransaction; its hash is known before it is sent. */
public final class Erc20 {

    private Erc20() {
    }

    /** The call data of transfer(to, value). */
    public static String transferData(String to, BigInteger value) {
        return FunctionEncoder.encode(new Function("transfer", List.of(new Address(to), new Uint256(value)), List.of()));
    }

    /** The fees and gas a transaction is sent with. */
    public record Gas(BigInteger limit, BigInteger maxPriorityFeePerGas, BigInteger maxFeePerGas) {
    }

    /** The signed transaction (0x hex) of transfer(to, value) on {@code token}, with this nonce. */
    public static String signedTransfer(long chainId, BigInteger nonce, Gas gas, String token, String to, BigInteger value,
                                        Credentials signer) {
        RawTransaction transaction = RawTransaction.createTransaction(chainId, nonce, gas.limit(), token, BigInteger.ZERO,
                transferData(to, value), gas.maxPriorityFeePerGas(), gas.maxFeePerGas());
        return Numeric.toHexString(TransactionEncoder.signMessage(transaction, signer));
    }
}
