package ai.lango.load;

/** One chat session of a load run: turns are sent one after another, chunks timed as they arrive. */
interface Driver extends AutoCloseable {

    /** What the client saw of one streamed chunk. */
    @FunctionalInterface
    interface Chunks {
        void chunk(long arrivedNanos, String text);
    }

    /** Runs one turn; calls {@code chunks} with each streamed chunk as it arrives. Returns the chunk count. */
    int turn(String message, Chunks chunks) throws Exception;

    @Override
    void close();
}
