package ai.lango.payment;

/** A payment that was not made, or whose outcome is not known yet, with a message for the model. */
public class PaymentException extends Exception {

    public PaymentException(String message) {
        super(message);
    }
}
