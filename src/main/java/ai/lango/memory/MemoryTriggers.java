package ai.lango.memory;

import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;

/**
 * When the observer, the reflector and meta-reflection run: each once what it watches reaches its
 * threshold (at the threshold, not only above it).
 */
public record MemoryTriggers(int observationTokens, int reflectionTokens, int metaReflections) {

    /** A meta-reflection threshold of 0 or less means the default: one reflection alone is nothing to fold. */
    public MemoryTriggers {
        metaReflections = metaReflections <= 0 ? Keys.MEMORY_META_REFLECTION_THRESHOLD.defaultValue() : metaReflections;
    }

    /** The triggers the configuration asks for. */
    public static MemoryTriggers of(LangoSettings.Memory settings) {
        return new MemoryTriggers(settings.observationThreshold(), settings.reflectionThreshold(),
                settings.metaReflectionThreshold());
    }

    /** Messages not yet observed are enough to compress into an observation. */
    public boolean observe(int unobservedMessageTokens) {
        return unobservedMessageTokens >= observationTokens;
    }

    /** Observations not yet reflected are enough to fold into a reflection. */
    public boolean reflect(int unreflectedObservationTokens) {
        return unreflectedObservationTokens >= reflectionTokens;
    }

    /** The session's unfolded reflections are enough to consolidate into one of the next generation. */
    public boolean metaReflect(int unfoldedReflections) {
        return unfoldedReflections >= metaReflections;
    }
}
