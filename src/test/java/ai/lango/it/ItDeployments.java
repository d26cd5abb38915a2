package ai.lango.it;

import ai.lango.fake.TestJson;
import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Integration tests deploy the real WAR the build produced, plus the test classes. */
public final class ItDeployments {

    private ItDeployments() {
    }

    public static WebArchive war(Class<?>... testClasses) {
        return war("lango-it.war", testClasses);
    }

    /** The WAR under another name, so its context root differs from the default deployment's. */
    public static WebArchive war(String name, Class<?>... testClasses) {
        File war = new File(System.getProperty("lango.war", "target/lango.war"));
        return ShrinkWrap.create(ZipImporter.class, name)
                .importFrom(war)
                .as(WebArchive.class)
                .addClasses(ItDeployments.class, ItPorts.class, FakeLlmIT.class, TestJson.class)
                .addClasses(testClasses);
    }

    /** Configuration of this deployment alone; the server's environment still wins over it. */
    public static WebArchive configured(WebArchive war, String properties) {
        return war.addAsResource(new StringAsset(properties), "META-INF/microprofile-config.properties");
    }
}
