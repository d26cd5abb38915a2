package ai.lango.memory;

import java.util.List;

/** A CDI event: a reflection of the session was stored, folding these observations and reflections. */
public record ReflectionSaved(long id, String sessionKey, List<Long> observationIds, List<Long> reflectionIds, String content) {
}
