package ai.lango.browser;

/** A browser action that could not be done, with a message for the model. */
public class BrowserException extends Exception {

    public BrowserException(String message) {
        super(message);
    }
}
