package ai.lango.memory;

import ai.lango.turn.SessionRef;
import java.util.List;

/** A CDI event: a reflection of the session was stored, folding these observations and reflections. */
public record ReflectionSaved(long id, SessionRef session, List<Long> observationIds, List<Long> reflectionIds, String content) {
}
