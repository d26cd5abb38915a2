package ai.lango.api.access;

import ai.lango.api.ApiError;
import ai.lango.api.ServletJson;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Request bodies on /api (A2A's endpoint included) are at most lango.http.max-body bytes. A
 * declared Content-Length over the limit is refused before a byte of the body is read; a body
 * without one (chunked) is read up to the limit and refused as soon as it passes it, so no request
 * holds more than the limit in memory. Refusals are 413 with the JSON error shape, and the
 * connection is closed rather than drained.
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true)
public class BodyLimitFilter extends HttpFilter {

    @Inject
    LangoSettings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long limit = settings.access().maxBody();
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            refuse(response, limit);
            return;
        }
        if (declared < 0 && request.getHeader("Transfer-Encoding") != null) {
            byte[] body = readUpTo(request.getInputStream(), limit);
            if (body == null) {
                refuse(response, limit);
                return;
            }
            chain.doFilter(new BufferedBody(request, body), response);
            return;
        }
        chain.doFilter(request, response);
    }

    /** The whole body when it is at most {@code limit} bytes; null as soon as it is longer. */
    static byte[] readUpTo(InputStream in, long limit) throws IOException {
        byte[] kept = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit));
        return kept.length == limit && in.read() >= 0 ? null : kept;
    }

    private static void refuse(HttpServletResponse response, long limit) throws IOException {
        response.setHeader("Connection", "close");
        ServletJson.write(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, ApiError.body("body_too_large",
                "the request body is larger than " + limit + " bytes (" + Keys.MAX_BODY + ")"), true);
    }

    /** The request with its already-read body served from memory. */
    private static final class BufferedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        BufferedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was read already; non-blocking reads are not offered");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset));
        }
    }
}
