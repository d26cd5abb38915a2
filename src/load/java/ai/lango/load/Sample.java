package ai.lango.load;

import java.util.Arrays;

/** Latencies in nanoseconds, collected by many threads, read as percentiles. */
final class Sample {

    private long[] values = new long[1 << 16];
    private int size;

    synchronized void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    synchronized void addAll(Sample other) {
        long[] theirs = other.sorted();
        for (long value : theirs) {
            add(value);
        }
    }

    synchronized int size() {
        return size;
    }

    synchronized long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    /** The p-th percentile in milliseconds. */
    double millis(double p) {
        long[] sorted = sorted();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
