package ai.lango.config;

/** A configuration value Lango cannot start with; the message names the key and what is accepted. */
public class InvalidConfigurationException extends RuntimeException {
    public InvalidConfigurationException(String message) {
        super(message);
    }
}
