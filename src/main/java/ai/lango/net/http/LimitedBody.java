package ai.lango.net.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A whole body collected up to a limit; beyond it, the exchange is cancelled and the body is a {@link TooLarge}. */
public final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

    /** The answer is larger than the client reads. */
    public static final class TooLarge extends IOException {
        TooLarge(int limit) {
            super("the answer is larger than " + HttpPeers.size(limit));
        }
    }

    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final int limit;
    private Flow.Subscription subscription;

    public LimitedBody(int limit) {
        this.limit = limit;
    }

    /** A handler whose bodies are read whole, up to {@code limit} bytes. */
    public static HttpResponse.BodyHandler<byte[]> handler(int limit) {
        return info -> new LimitedBody(limit);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer item : items) {
            if (buffer.size() + item.remaining() > limit) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge(limit));
                return;
            }
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            buffer.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(buffer.toByteArray());
    }
}
