package ai.lango.retrieval;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Vector arithmetic and the stored form of a vector (little-endian float32). */
public final class Vectors {

    private Vectors() {
    }

    /** The vector scaled to unit length (a zero vector stays zero). */
    public static float[] normalized(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        float[] out = v.clone();
        if (sum > 0) {
            float scale = (float) (1 / Math.sqrt(sum));
            for (int i = 0; i < out.length; i++) {
                out[i] *= scale;
            }
        }
        return out;
    }

    /** The dot product; for unit vectors, their cosine similarity. Vectors of other lengths are unrelated: 0. */
    public static double dot(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    public static byte[] toBytes(float[] v) {
        ByteBuffer buffer = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(v);
        return buffer.array();
    }

    public static float[] fromBytes(byte[] bytes) {
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
