package ai.lango.adk;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** A CDI event for tests without the container: it remembers what was fired. */
final class RecordedEvents<T> implements Event<T> {

    final List<T> fired = new CopyOnWriteArrayList<>();
    /** Set: fireAsync throws it, as the container's does once its executors are shut down. */
    volatile RuntimeException refusal;

    @Override
    public void fire(T event) {
        fired.add(event);
    }

    @Override
    public <U extends T> CompletionStage<U> fireAsync(U event) {
        if (refusal != null) {
            throw refusal;
        }
        fired.add(event);
        return CompletableFuture.completedFuture(event);
    }

    @Override
    public <U extends T> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
        return fireAsync(event);
    }

    @Override
    public Event<T> select(Annotation... qualifiers) {
        return this;
    }

    @Override
    public <U extends T> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <U extends T> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException();
    }
}
