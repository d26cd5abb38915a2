package ai.lango.api.health;

import ai.lango.masking.MaskedLogs;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.logging.Logger;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * /health/ready is DOWN while the heap stays nearly full after garbage collection ({@value #FULL}
 * of its maximum in a pool that outlives collections): a server in that state answers slowly or
 * not at all, and a load balancer should send its users elsewhere; the log says so once each time it
 * happens. (An OutOfMemoryError itself ends the JVM, -XX:+ExitOnOutOfMemoryError in jvm.options: a
 * server whose threads died of it would otherwise keep answering UP while its turns hang.)
 */
@Readiness
@ApplicationScoped
public class HeapHealth implements HealthCheck {

    static final double FULL = 0.9;
    private static final Logger LOG = MaskedLogs.of(HeapHealth.class);

    private List<MemoryPoolMXBean> pools;
    private final NotificationListener full = (notification, handback) -> {
        if (MemoryNotificationInfo.MEMORY_COLLECTION_THRESHOLD_EXCEEDED.equals(notification.getType())) {
            LOG.severe("the heap is still " + (int) (FULL * 100) + "% full after garbage collection: readiness"
                    + " is DOWN until it is not (raise -Xmx in jvm.options if this is the normal load)");
        }
    };

    @PostConstruct
    void watch() {
        pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()
                        && p.getUsage().getMax() > 0)
                .toList();
        for (MemoryPoolMXBean pool : pools) {
            pool.setCollectionUsageThreshold((long) (pool.getUsage().getMax() * FULL));
        }
        if (ManagementFactory.getMemoryMXBean() instanceof NotificationEmitter emitter) {
            emitter.addNotificationListener(full, null, null);
        }
    }

    /** An application that goes (a redeploy) takes its listener with it. */
    @PreDestroy
    void stop() {
        if (ManagementFactory.getMemoryMXBean() instanceof NotificationEmitter emitter) {
            try {
                emitter.removeNotificationListener(full);
            } catch (ListenerNotFoundException gone) {
                // never added
            }
        }
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("heap");
        boolean full = false;
        for (MemoryPoolMXBean pool : pools) {
            MemoryUsage after = pool.getCollectionUsage();
            if (after != null && after.getMax() > 0) {
                response.withData(pool.getName(), after.getUsed() / (1024 * 1024) + " of " + after.getMax() / (1024 * 1024) + " MiB");
                full |= after.getUsed() > after.getMax() * FULL;
            }
        }
        return response.status(!full).build();
    }
}
