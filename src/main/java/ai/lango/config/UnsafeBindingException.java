package ai.lango.config;

/** lango.http.host reachable from other machines without lango.auth.token: the server must not listen at all. */
public class UnsafeBindingException extends InvalidConfigurationException {
    public UnsafeBindingException(String message) {
        super(message);
    }
}
