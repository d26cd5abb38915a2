package ai.lango.eval;

/** An eval set, case or request that does not hold what ADK's format asks: the message names the field. */
public class EvalFormatException extends Exception {

    public EvalFormatException(String message) {
        super(message);
    }
}
