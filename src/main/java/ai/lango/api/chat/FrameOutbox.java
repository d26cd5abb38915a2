package ai.lango.api.chat;

import ai.lango.masking.Audience;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.SecretMask;
import jakarta.websocket.CloseReason;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The frames of one WebSocket connection, sent in order without blocking whoever sends them: a
 * frame is queued, and the next one leaves when the container reports the last one written.
 * Blocking on a send, as before, held the sending thread — a turn's, or one of the container's
 * own, which the container needed to finish writes: under load sends then waited their whole
 * timeout on connections that were fine. A client too slow for {@link #MAX_QUEUED} frames, or a
 * write that fails or takes longer than {@link #SEND_TIMEOUT}, ends the connection (1011); the
 * turn goes on and is stored either way.
 */
final class FrameOutbox {

    private static final Logger LOG = MaskedLogs.of(FrameOutbox.class);

    /** How long one frame may take to be written before the client counts as gone. */
    static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);

    /** Frames waiting to leave, at most: a 50-chunk answer is 55 frames. */
    static final int MAX_QUEUED = 10_000;

    private static final String KEY = FrameOutbox.class.getName();
    /** The connection's reader, once it is known (until then nobody's: every secret unnamed). */
    private static final String READER = KEY + ".reader";

    private final Session session;
    /** Frames (text) to write, and at most one close (a {@link CloseReason}) after the frames before it. */
    private final Deque<Object> queued = new ArrayDeque<>();
    private boolean writing;
    private boolean closed;
    /** A sendText call is under way, and whether its write was reported done before it returned. */
    private boolean inSendText;
    private boolean doneInSendText;

    private FrameOutbox(Session session) {
        this.session = session;
        session.getAsyncRemote().setSendTimeout(SEND_TIMEOUT.toMillis());
    }

    /** From now on the frames of {@code session} are read by {@code reader} (the caller it authenticated as). */
    static void readBy(Session session, Audience reader) {
        Map<String, Object> properties = session.getUserProperties();
        if (properties != null) {
            properties.put(READER, reader);
        }
    }

    /**
     * Queues a frame on the connection's outbox (made on first use), every known secret masked in it
     * for the connection's reader (a stored history may hold a value stored as a secret since). Never
     * throws: whatever the connection does, the turn that sends goes on and is stored.
     */
    static void send(Session session, String unmasked) {
        Map<String, Object> properties = session.getUserProperties();
        Audience reader = properties != null && properties.get(READER) instanceof Audience known ? known : Audience.NOBODY;
        enqueue(session, SecretMask.mask(unmasked, reader));
    }

    /** Closes the connection with {@code reason} once the frames queued before are written. */
    static void closeAfterQueued(Session session, CloseReason reason) {
        enqueue(session, reason);
    }

    private static void enqueue(Session session, Object frame) {
        try {
            FrameOutbox outbox;
            synchronized (session) {
                Map<String, Object> properties = session.getUserProperties();
                if (properties == null) {
                    return; // Liberty drops them when the connection closes: the client left
                }
                outbox = (FrameOutbox) properties.computeIfAbsent(KEY, k -> new FrameOutbox(session));
            }
            outbox.send(frame);
        } catch (RuntimeException e) {
            LOG.fine(() -> "client gone: " + e);
        }
    }

    /** Queues a frame (or a close); it is written after those queued before it. */
    private void send(Object frame) {
        synchronized (this) {
            if (closed || !session.isOpen()) {
                return; // the client left; the turn still completes and is stored
            }
            if (queued.size() >= MAX_QUEUED) {
                fail("the client read too slowly (" + MAX_QUEUED + " frames waiting)");
                return;
            }
            queued.add(frame);
            if (writing) {
                return;
            }
            writing = true;
        }
        writeNext();
    }

    /**
     * Writes queued frames one at a time. A container may report a write done inside sendText
     * itself; then this loop goes on rather than recursing once per frame.
     */
    private void writeNext() {
        while (true) {
            Object next;
            synchronized (this) {
                next = queued.poll();
                if (next == null || closed) {
                    writing = false;
                    return;
                }
                if (next instanceof CloseReason) {
                    closed = true;
                    queued.clear();
                    writing = false;
                } else {
                    inSendText = true;
                    doneInSendText = false;
                }
            }
            if (next instanceof CloseReason reason) {
                close(reason);
                return;
            }
            try {
                session.getAsyncRemote().sendText((String) next, this::written);
            } catch (RuntimeException e) {
                fail(e.toString());
                return;
            }
            synchronized (this) {
                inSendText = false;
                if (!doneInSendText) {
                    return; // written() goes on when the container reports the write
                }
            }
        }
    }

    private void written(SendResult result) {
        if (!result.isOK()) {
            fail(String.valueOf(result.getException()));
            return;
        }
        synchronized (this) {
            if (inSendText) {
                doneInSendText = true; // the loop in writeNext goes on
                return;
            }
        }
        writeNext();
    }

    private void fail(String why) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queued.clear();
            writing = false;
        }
        LOG.info(() -> "a frame could not be sent, closing the connection: " + why);
        // 1011, not 1006: 1006 must never be sent, and a client that is still there rejects it.
        close(new CloseReason(CloseReason.CloseCodes.UNEXPECTED_CONDITION, "send failed"));
    }

    private void close(CloseReason reason) {
        try {
            session.close(reason);
        } catch (IOException | RuntimeException ignored) {
            // already closed
        }
    }
}
