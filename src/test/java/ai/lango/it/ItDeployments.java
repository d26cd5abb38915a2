package ai.lango.it;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Integration tests deploy the real WAR the build produced, plus the test classes. */
public final class ItDeployments {

    private ItDeployments() {
    }

    public static WebArchive war(Class<?>... testClasses) {
        File war = new File(System.getProperty("lango.war", "target/lango.war"));
        return ShrinkWrap.create(ZipImporter.class, "lango-it.war")
                .importFrom(war)
                .as(WebArchive.class)
                .addClass(ItDeployments.class)
                .addClasses(testClasses);
    }
}
