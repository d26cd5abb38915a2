package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.config.LangoSettings;
import ai.lango.session.InvalidSessionKeyException;
import ai.lango.session.SessionStore;
import ai.lango.session.StoredSession;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The session an operator names on the admin API. Session ids are unique per user only, so the
 * key names one when a single user has a session under it; when several do, {@code ?userId=} says
 * whose (409 until it does).
 */
@ApplicationScoped
public class OperatorSessions {

    @Inject
    SessionStore store;

    @Inject
    LangoSettings settings;

    /** What {@code action} answers for the session named by {@code key} (and {@code userId}), or why no one session is named. */
    Response answer(String key, String userId, Function<SessionRef, Response> action) {
        LangoSettings.DbKind database = settings.database().kind();
        Optional<Response> invalid = ApiError.unstorableId("key", key, database)
                .or(() -> userId == null ? Optional.empty() : ApiError.unstorableId("userId", userId, database));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        List<StoredSession> candidates;
        try {
            candidates = store.withKey(key).stream().filter(s -> userId == null || s.userId().equals(userId)).toList();
        } catch (InvalidSessionKeyException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_session_key", e.getMessage());
        }
        if (candidates.isEmpty()) {
            return notFound(key);
        }
        if (candidates.size() > 1) {
            return ApiError.of(Response.Status.CONFLICT, "ambiguous_session", candidates.size()
                    + " users have a session \"" + key + "\" (" + String.join(", ", candidates.stream().map(StoredSession::userId)
                    .toList()) + "): name one with ?userId=");
        }
        return action.apply(candidates.get(0).ref());
    }

    static Response notFound(String key) {
        return ApiError.of(Response.Status.NOT_FOUND, "session_not_found", "no session \"" + key + "\"");
    }
}
