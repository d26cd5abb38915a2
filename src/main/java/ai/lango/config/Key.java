package ai.lango.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The configuration key whose value a settings record's component carries: {@link SettingsParser}
 * fills the component from the key's declaration in {@link Keys}, so a new key is its declaration,
 * the component and the code that uses it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Key {

    /** The key, as declared in {@link Keys}: lango.agent.max-turns. */
    String value();
}
