package ai.lango.payment;

import ai.lango.masking.MaskedLogs;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Settles what a crash or a slow chain left open: at start (after the vault has opened) and every
 * 15 seconds while payments are on. Several servers may do it at once; each change of a payment is
 * conditional on its old status, so it happens once.
 */
@ApplicationScoped
public class PaymentReconciler {

    private static final Logger LOG = MaskedLogs.of(PaymentReconciler.class);

    @Inject
    Payments payments;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> task;

    void start(@Observes @Priority(160) @Initialized(ApplicationScoped.class) Object event) {
        if (!payments.enabled()) {
            return;
        }
        task = scheduler.scheduleWithFixedDelay(this::run, 0, 15, TimeUnit.SECONDS);
    }

    private void run() {
        try {
            payments.reconcile();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reconciling payments failed; trying again", e);
        }
    }

    void stop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
        if (task != null) {
            task.cancel(false);
        }
    }
}
