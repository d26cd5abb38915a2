package ai.lango.net.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A response body read as an InputStream in which every read waits at most {@code idle} for the
 * next bytes. The JDK's own {@code BodyHandlers.ofInputStream()} has no such limit once the headers
 * are in, so a peer that stalls midway would block the reader forever; here the wait is a
 * bounded {@link BlockingQueue#poll}, and on expiry the subscription is cancelled, which closes the
 * connection. With a deadline, no read waits past it either, however often bytes (a keep-alive) come.
 */
public final class IdleTimeoutBody extends InputStream implements HttpResponse.BodySubscriber<InputStream> {

    /** Thrown by a read that waited longer than the idle limit. */
    public static final class IdleTimeoutException extends InterruptedIOException {
        IdleTimeoutException(String message) {
            super(message);
        }
    }

    private static final Object END = new Object();

    /** Put by close() so that a read blocked in another thread wakes up at once. */
    private static final Object CLOSED = new Object();

    private record Failure(Throwable error) {
    }

    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final long idleNanos;
    /** System.nanoTime() after which no read waits; Long.MAX_VALUE for none. */
    private final long deadline;
    private final boolean bounded;
    private volatile Flow.Subscription subscription;
    private volatile boolean closed;
    private Iterator<ByteBuffer> buffers = Collections.emptyIterator();
    private ByteBuffer current;
    private boolean finished;

    public IdleTimeoutBody(java.time.Duration idle) {
        this(idle, 0, false);
    }

    private IdleTimeoutBody(java.time.Duration idle, long deadline, boolean bounded) {
        this.idleNanos = idle.toNanos();
        this.deadline = deadline;
        this.bounded = bounded;
    }

    /** A handler whose bodies wait at most {@code idle} for each read. */
    public static HttpResponse.BodyHandler<InputStream> handler(java.time.Duration idle) {
        return info -> new IdleTimeoutBody(idle);
    }

    /** A handler whose bodies wait at most {@code idle} for each read, and no read past {@code deadline} (System.nanoTime()). */
    public static HttpResponse.BodyHandler<InputStream> handler(java.time.Duration idle, long deadline) {
        return info -> new IdleTimeoutBody(idle, deadline, true);
    }

    // --- BodySubscriber side (called by the HTTP client's threads) ---

    @Override
    public CompletionStage<InputStream> getBody() {
        return CompletableFuture.completedFuture(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (closed) {
            s.cancel();
        } else {
            s.request(1); // one list of buffers at a time: the reader's pace is the network's pace
        }
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        queue.add(item);
    }

    @Override
    public void onError(Throwable error) {
        queue.add(new Failure(error));
    }

    @Override
    public void onComplete() {
        queue.add(END);
    }

    // --- InputStream side (called by the one reading thread) ---

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return current.get() & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, current.remaining());
        current.get(b, off, n);
        return n;
    }

    @Override
    public int available() {
        return current == null ? 0 : current.remaining();
    }

    /** Makes {@code current} hold unread bytes; false at the end of the body. */
    private boolean fill() throws IOException {
        while (current == null || !current.hasRemaining()) {
            if (buffers.hasNext()) {
                current = buffers.next();
                continue;
            }
            if (finished) {
                return false;
            }
            if (closed) {
                throw new IOException("response body closed");
            }
            long wait = bounded ? Math.min(idleNanos, deadline - System.nanoTime()) : idleNanos;
            if (wait <= 0) {
                close();
                throw new IdleTimeoutException("the body did not end in time");
            }
            Object item;
            try {
                item = queue.poll(wait, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new InterruptedIOException("interrupted while reading the response");
            }
            if (item == null) {
                close();
                throw new IdleTimeoutException(wait < idleNanos ? "the body did not end in time"
                        : "no data for " + TimeUnit.NANOSECONDS.toMillis(idleNanos) + " ms");
            }
            if (item == CLOSED) {
                throw new IOException("response body closed");
            }
            if (item == END) {
                finished = true;
                return false;
            }
            if (item instanceof Failure f) {
                finished = true;
                throw f.error() instanceof IOException io ? io : new IOException(f.error());
            }
            @SuppressWarnings("unchecked")
            List<ByteBuffer> list = (List<ByteBuffer>) item;
            buffers = list.iterator();
            Flow.Subscription s = subscription;
            if (s != null) {
                s.request(1);
            }
        }
        return true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.add(CLOSED);
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }
}
