package ai.lango.adk;

import io.reactivex.rxjava3.schedulers.Schedulers;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Destroyed;
import jakarta.enterprise.event.Observes;

/**
 * RxJava (ADK's) starts scheduler threads that live as long as its classes, and its classes are
 * the application's: left running after the application stops, they keep the whole application
 * (its classes and what they hold) in the server's heap, once per redeploy — the integration
 * tests' server, which deploys two dozen WARs in a row, ran out of heap. They end with the
 * application, after its turns have.
 */
@ApplicationScoped
class RxShutdown {

    void stop(@Observes @Priority(10_000) @Destroyed(ApplicationScoped.class) Object event) {
        Schedulers.shutdown();
    }
}
