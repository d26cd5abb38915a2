package ai.lango.load;

/** One chat session of a load run: turns are sent one after another, chunks timed as they arrive. */
interface Driver extends AutoCloseable {

    /** Runs one turn; calls {@code chunk} with the arrival time of each streamed chunk. Returns the chunk count. */
    int turn(String message, java.util.function.LongConsumer chunk) throws Exception;

    @Override
    void close();
}
