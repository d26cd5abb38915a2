package ai.lango.retrieval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VectorsTest {

    @Test
    void theStoredFormRoundTrips() {
        float[] v = {0.25f, -1.5f, 3.0e-7f, Float.MAX_VALUE};
        assertArrayEquals(v, Vectors.fromBytes(Vectors.toBytes(v)));
        assertEquals(16, Vectors.toBytes(v).length);
    }

    @Test
    void normalizedHasUnitLengthAndAZeroVectorStaysZero() {
        float[] n = Vectors.normalized(new float[] {3, 4});
        assertEquals(1.0, Vectors.dot(n, n), 1e-6);
        assertArrayEquals(new float[] {0.6f, 0.8f}, n, 1e-6f);
        assertArrayEquals(new float[] {0, 0}, Vectors.normalized(new float[] {0, 0}));
    }

    @Test
    void vectorsOfOtherLengthsAreUnrelated() {
        assertEquals(0.0, Vectors.dot(new float[] {1, 0}, new float[] {1, 0, 0}));
    }
}
