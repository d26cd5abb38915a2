package ai.lango.it;

import io.openliberty.arquillian.managed.WLPManagedContainer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * The Liberty container of the Arquillian tests, deploying a shared WAR ({@link ItDeployments}) once
 * for the test classes that ask for the same one in a row: when a class ends, its shared deployments
 * stay, and the next class that asks for an identical archive (same name, entries and configuration)
 * gets them as they are. Anything else asked for first undeploys what was kept, so one class's
 * deployments at most run at a time, as before. A deployment without the shared marker (a test
 * that deploys and undeploys itself to restart the application) is deployed and undeployed as asked.
 * The classes that share one deployment run one after another ({@link ItClassOrder}).
 */
public class SharedDeployments extends WLPManagedContainer {

    static {
        // The container writes each deployment with ShrinkWrap's zip exporter: this one stores the entries instead.
        ShrinkWrap.getDefaultDomain().getConfiguration().getExtensionLoader()
                .addOverride(ZipExporter.class, StoredZipExporter.class);
    }

    /** What a shared deployment carries, so that it is told from one a test deploys itself. */
    static final String MARKER = "META-INF/lango-it-shared";

    private record Deployed(Archive<?> archive, String fingerprint, ProtocolMetaData metaData) {
    }

    /** Shared deployments a test class uses now, and those kept after their class ended, by archive name. */
    private final Map<String, Deployed> active = new LinkedHashMap<>();
    private final Map<String, Deployed> kept = new LinkedHashMap<>();

    @Override
    public synchronized ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        boolean shared = archive.contains(MARKER);
        String fingerprint = shared ? fingerprint(archive) : "";
        Deployed reusable = kept.remove(archive.getName());
        if (reusable != null && shared && reusable.fingerprint().equals(fingerprint)) {
            active.put(archive.getName(), reusable);
            return reusable.metaData();
        }
        if (reusable != null) {
            kept.put(archive.getName(), reusable);
        }
        undeployKept();
        ProtocolMetaData metaData = super.deploy(archive);
        if (shared) {
            active.put(archive.getName(), new Deployed(archive, fingerprint, metaData));
        }
        return metaData;
    }

    @Override
    public synchronized void undeploy(Archive<?> archive) throws DeploymentException {
        Deployed deployed = active.remove(archive.getName());
        if (deployed != null) {
            kept.put(archive.getName(), deployed);
            return;
        }
        super.undeploy(archive);
    }

    @Override
    public synchronized void stop() throws LifecycleException {
        try {
            undeployKept();
        } catch (DeploymentException e) {
            throw new LifecycleException("undeploying a kept deployment failed", e);
        }
        super.stop();
    }

    private void undeployKept() throws DeploymentException {
        List<Deployed> leaving = new ArrayList<>(kept.values());
        kept.clear();
        for (Deployed deployed : leaving) {
            super.undeploy(deployed.archive());
        }
    }

    /** The archive's name, its entries and its configuration: what tells two deployments apart. */
    static String fingerprint(Archive<?> archive) {
        StringBuilder print = new StringBuilder(archive.getName()).append('\n');
        new TreeSet<>(archive.getContent().keySet().stream().map(ArchivePath::get).toList())
                .forEach(path -> print.append(path).append('\n'));
        Node config = archive.get("WEB-INF/classes/META-INF/microprofile-config.properties");
        if (config != null && config.getAsset() != null) {
            try (InputStream in = config.getAsset().openStream()) {
                print.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the deployment's configuration", e);
            }
        }
        return print.toString();
    }

    /** Registers the container in place of Liberty's own (META-INF/services). */
    public static final class Extension implements LoadableExtension {
        @Override
        public void register(ExtensionBuilder builder) {
            builder.override(DeployableContainer.class, WLPManagedContainer.class, SharedDeployments.class);
        }
    }
}
