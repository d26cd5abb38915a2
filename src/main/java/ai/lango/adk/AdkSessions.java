package ai.lango.adk;

import ai.lango.adk.sessions.JpaSessionService;
import ai.lango.turn.Names;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.adk.JsonBaseModel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions of the ADK-compatible API, written in ADK's own JSON ({@code {id, appName, userId,
 * state, events, lastUpdateTime}}), so the edges serve them without knowing ADK's types.
 */
@ApplicationScoped
public class AdkSessions {

    @Inject
    JpaSessionService sessions;

    /** Creates a session (a new id when {@code id} is null) and answers it. */
    public String create(String userId, String id, Map<String, Object> state) {
        return json(sessions.createSession(Names.APP, userId, new ConcurrentHashMap<>(state), id).blockingGet());
    }

    /** The user's session with every event; empty when the user has none by that id. */
    public Optional<String> read(String userId, String id) {
        return sessions.readSession(Names.APP, userId, id).map(AdkSessions::json);
    }

    /** The user's sessions, without their events. */
    public String list(String userId) {
        return json(sessions.listSessions(Names.APP, userId).blockingGet().sessions());
    }

    /** Deletes the user's session; nothing happens for a session the user does not have. */
    public void delete(String userId, String id) {
        sessions.deleteSession(Names.APP, userId, id).blockingAwait();
    }

    static String json(Object value) {
        try {
            return JsonBaseModel.getMapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an ADK session could not be written as JSON", e);
        }
    }
}
