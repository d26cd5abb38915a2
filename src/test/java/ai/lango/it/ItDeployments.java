package ai.lango.it;

import ai.lango.fake.TestJson;
import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Integration tests deploy the real WAR the build produced, plus every class of the tests (so a
 * test runs in the server whichever class it is). A deployment is shared: the test classes that ask
 * for the same one (same name and configuration) in a row run on one deployment of it
 * ({@link SharedDeployments}), unless it is {@link #restartable} — a test that deploys and undeploys
 * it itself.
 */
public final class ItDeployments {

    /** The name of the deployment with the build's configuration alone. */
    static final String DEFAULT = "lango-it.war";

    /** The WAR, read once per test run: every deployment is a copy of it plus the tests. */
    private static WebArchive built;

    private ItDeployments() {
    }

    /** The WAR with the build's configuration, shared by every class that deploys it. */
    public static WebArchive war() {
        return war(DEFAULT);
    }

    /** The WAR under another name (its context root differs from the default deployment's), shared. */
    public static WebArchive war(String name) {
        WebArchive war = restartable(name);
        war.add(EmptyAsset.INSTANCE, SharedDeployments.MARKER);
        return war;
    }

    /** The WAR for a test that deploys and undeploys it itself: never kept for another class. */
    public static WebArchive restartable(String name) {
        return ShrinkWrap.create(WebArchive.class, name).merge(built())
                .addPackages(false, ItDeployments.class.getPackage(), TestJson.class.getPackage());
    }

    private static synchronized WebArchive built() {
        if (built == null) {
            File war = new File(System.getProperty("lango.war", "target/lango.war"));
            built = ShrinkWrap.create(ZipImporter.class, "built.war").importFrom(war).as(WebArchive.class);
        }
        return built;
    }

    /** Configuration of this deployment alone; the server's environment still wins over it. */
    public static WebArchive configured(WebArchive war, String properties) {
        return war.addAsResource(new StringAsset(properties), "META-INF/microprofile-config.properties");
    }
}
