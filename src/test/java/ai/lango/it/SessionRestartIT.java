package ai.lango.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.knowledge.KnowledgeEntry;
import ai.lango.knowledge.KnowledgeStore;
import ai.lango.learning.LearningStore;
import ai.lango.security.Ownership;
import com.google.adk.events.Event;
import com.google.adk.sessions.Session;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A conversation appended through ADK's session service survives an application restart: after
 * undeploy and deploy, the same events are read back identical, and the state with them; so do
 * knowledge and learnings saved before it.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SessionRestartIT {

    private static final String APP = "lango";
    private static final String USER = "restart-user";
    /** The server JVM outlives the application, so the key travels across the restart here. */
    private static final String KEY_PROPERTY = "lango.it.restart.key";

    @Deployment(name = "app", managed = false)
    static WebArchive deployment() {
        return ItDeployments.restartable("lango-restart.war");
    }

    @ArquillianResource
    Deployer deployer;

    @Inject
    JpaSessionService sessions;

    @Inject
    KnowledgeStore knowledge;

    @Inject
    LearningStore learnings;

    @Test
    @Order(1)
    @RunAsClient
    void deploy() {
        deployer.deploy("app");
    }

    @Test
    @Order(2)
    @OperateOnDeployment("app")
    void appendConversationThroughAdk() {
        String key = "restart-" + UUID.randomUUID();
        System.setProperty(KEY_PROPERTY, key);
        Session session = sessions.createSession(APP, USER, new ConcurrentHashMap<>(Map.of("seed", 1)), key).blockingGet();
        for (Event event : ItEvents.conversation()) {
            sessions.appendEvent(session, event).blockingGet();
        }
        sessions.appendEvent(session, ItEvents.stateOnly(1_700_000_004_000L)).blockingGet();
        assertEquals(json(ItEvents.conversation()), json(session.events()));
        knowledge.save(KnowledgeEntry.of(key, "fact", "kept across a restart", List.of("restart"), "test"));
        learnings.saveFix(Ownership.SHARED, "tool:" + key, "restart pattern", "restart fix", null, "general");
    }

    @Test
    @Order(3)
    @RunAsClient
    void restartApplication() {
        deployer.undeploy("app");
        deployer.deploy("app");
    }

    @Test
    @Order(4)
    @OperateOnDeployment("app")
    void sameEventsAndStateReadBackAfterRestart() {
        String key = System.getProperty(KEY_PROPERTY);
        Session session = sessions.getSession(APP, USER, key, Optional.empty()).blockingGet();

        assertEquals(json(ItEvents.conversation()), json(session.events()));
        assertEquals(json(ItEvents.conversation()), json(sessions.listEvents(APP, USER, key).blockingGet().events()));
        assertEquals(1, session.state().get("seed"));
        assertEquals("files", session.state().get("topic"));
        assertEquals(2, session.state().get("counter"));
        assertEquals("hi", session.state().get("app:greeting"));
        assertEquals("Ann", session.state().get("user:name"));
        assertFalse(session.state().containsKey("temp:scratch"), "temp: state is never persisted");
        assertEquals(1_700_000_004_000L, session.lastUpdateTime().toEpochMilli());
        assertEquals("kept across a restart", knowledge.get(KnowledgeEntry.SHARED, key).orElseThrow().content());
        assertTrue(learnings.all(null, 0, 10_000).stream().anyMatch(l -> l.trigger().equals("tool:" + key) && l.fix().equals("restart fix")));
    }

    @Test
    @Order(5)
    @RunAsClient
    void undeploy() {
        deployer.undeploy("app");
    }

    private static List<String> json(List<Event> events) {
        return events.stream().map(Event::toJson).toList();
    }
}
