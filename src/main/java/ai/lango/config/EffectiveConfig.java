package ai.lango.config;

import java.util.Map;

/**
 * The configuration in force, key by key in the order of {@link Keys}: what was set, and the
 * default where nothing was (derived defaults as derived); secrets masked.
 */
public record EffectiveConfig(Map<String, Object> values) {
}
