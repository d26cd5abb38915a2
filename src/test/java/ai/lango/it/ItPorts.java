package ai.lango.it;

import java.net.URI;

/**
 * The ports pom.xml gives the integration tests ({@code it.http.port}, {@code it.fake.port}, …),
 * read from the environment the build sets, which the test JVM and the server it starts share: so
 * a test reads the same value client-side and inside the server, and a second checkout can run its
 * tests beside this one on other ports.
 */
public final class ItPorts {

    /** Where the server under test listens (LANGO_HTTP_PORT). */
    public static final int HTTP = Integer.parseInt(System.getenv().getOrDefault("LANGO_HTTP_PORT", "19080"));

    /** Where the fake LLM server must listen: the port of the configured OpenAI base URL. */
    public static final int FAKE_LLM = URI.create(System.getenv()
            .getOrDefault("LANGO_PROVIDERS_OPENAI_BASE_URL", "http://127.0.0.1:19099/v1")).getPort();

    private ItPorts() {
    }
}
