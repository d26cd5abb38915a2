package ai.lango.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a plain socket, for what java.net.http will not send: a Host header of our choosing,
 * a body that promises more than it sends, chunks without an end, WebSocket frames that break the
 * protocol.
 */
final class ItRaw implements AutoCloseable {

    final Socket socket;
    final OutputStream out;
    final InputStream in;

    ItRaw(URL base) throws IOException {
        socket = new Socket(base.getHost(), base.getPort());
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    void write(String text) throws IOException {
        write(text.getBytes(StandardCharsets.UTF_8));
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The response's head (status line and headers) as text. */
    String head() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
            if (matched == 4) {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** What arrives until the server closes or goes quiet for the socket's timeout. */
    String rest() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                body.write(buffer, 0, n);
                if (body.size() > 0 && in.available() == 0) {
                    socket.setSoTimeout(1_000);
                }
            }
        } catch (SocketTimeoutException | java.net.SocketException e) {
            // quiet or reset: what came is the answer
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    static int status(String head) {
        return Integer.parseInt(head.substring(9, 12));
    }

    /** A GET with the given Host header; the response's head and body. */
    static String[] get(URL base, String path, String host) throws IOException {
        try (ItRaw raw = new ItRaw(base)) {
            raw.write("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
            String head = raw.head();
            return new String[] {head, raw.rest()};
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
