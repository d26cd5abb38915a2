package ai.lango.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * The order the integration test classes run in (junit.jupiter.testclass.order.default, pom.xml):
 * those on the default deployment first, one after another, so that they share one deployment of it
 * ({@link SharedDeployments}); then the others, by name.
 */
public class ItClassOrder implements ClassOrderer {

    /** A class whose deployment is {@link ItDeployments#war()}. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    public @interface OnTheDefaultDeployment {
    }

    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(Comparator
                .comparing((ClassDescriptor c) -> !c.isAnnotated(OnTheDefaultDeployment.class))
                .thenComparing(c -> c.getTestClass().getName()));
    }
}
