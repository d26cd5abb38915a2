package ai.lango.memory;

/**
 * When the observer, the reflector and meta-reflection run: each once what it watches reaches its
 * threshold (at the threshold, not only above it).
 */
public record MemoryTriggers(int observationTokens, int reflectionTokens, int metaReflections) {

    public static final int DEFAULT_OBSERVATION_TOKENS = 1000;
    public static final int DEFAULT_REFLECTION_TOKENS = 2000;
    public static final int DEFAULT_META_REFLECTIONS = 5;

    /** A meta-reflection threshold of 0 or less means the default: one reflection alone is nothing to fold. */
    public MemoryTriggers {
        metaReflections = metaReflections <= 0 ? DEFAULT_META_REFLECTIONS : metaReflections;
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
