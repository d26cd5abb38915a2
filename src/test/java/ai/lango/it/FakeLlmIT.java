package ai.lango.it;

import ai.lango.fake.FakeLlmServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every integration test against the server shares: a fresh fake model per test on the port
 * the server's configuration names (ItPorts), closed after it. Arquillian runs these methods where
 * the test runs, in the server for in-container tests and in the client otherwise.
 */
public abstract class FakeLlmIT {

    protected FakeLlmServer fake;

    @BeforeEach
    void startFakeLlm() {
        fake = FakeLlmServer.start(ItPorts.FAKE_LLM);
    }

    @AfterEach
    void stopFakeLlm() {
        fake.close();
    }
}
