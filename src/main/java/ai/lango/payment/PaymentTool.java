package ai.lango.payment;

import ai.lango.masking.MaskedLogs;
import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the payment_ tools share: what goes wrong (a limit, the chain, an unexpected failure) is a
 * tool error the model can read, and only who may write what is shared spends from the wallet or
 * makes it.
 */
abstract class PaymentTool extends DeclaredTool {

    private static final Logger LOG = MaskedLogs.of(PaymentTool.class);

    protected final Payments payments;

    PaymentTool(String name, Safety safety, String description, Map<String, Object> parameters, Payments payments) {
        super(ToolFamily.PAYMENT, name, safety, description, parameters);
        this.payments = payments;
    }

    /** A schema of no parameters. */
    static Map<String, Object> none() {
        return ToolArgs.schema(new LinkedHashMap<>(), List.of());
    }

    @Override
    public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        try {
            return run(args, caller);
        } catch (PaymentException e) {
            throw new ToolException(e.getMessage());
        } catch (ChainRpc.ChainException e) {
            throw new ToolException("the chain: " + e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ToolException(e.getMessage());
        } catch (ToolException e) {
            throw e;
        } catch (Exception e) {
            LOG.log(Level.WARNING, name() + " failed", e);
            throw new ToolException(name() + " failed (" + e.getClass().getSimpleName() + "; the server's log has more);"
                    + " payment_history shows what was stored");
        }
    }

    abstract Map<String, Object> run(Map<String, Object> args, Caller caller) throws Exception;

    /** The wallet is every user's: a caller who may not write what is shared gets a tool error. */
    static void requireSpender(Ownership ownership, Caller caller) throws ToolException {
        if (caller != null && caller.userId() != null && !ownership.mayWriteShared(caller.admin())) {
            throw new ToolException("the wallet is every user's: only an administrator spends from it or makes it");
        }
    }

    /** The wallet's address, or a tool error saying there is none yet. */
    String address() throws ToolException {
        return payments.wallet().address().orElseThrow(() -> new ToolException("there is no wallet yet: payment_create_wallet"
                + " makes one, or an operator imports one"));
    }
}
