package ai.lango.net.egress;

import ai.lango.masking.MaskedLogs;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The only way out of a browser context, and of the server's own fetches on the agent's behalf: an
 * HTTP proxy on 127.0.0.1 that every request goes through (pages, redirects, frames, scripts,
 * fetches, WebSockets, loopback included), deciding each by {@link HostPolicy} after resolving the
 * name and connecting to the very address it checked. Plain http is forwarded one request per
 * connection (Connection: close both ways, so no connection carries a second request to another
 * host); https and WebSockets pass through CONNECT tunnels to the checked address. A refusal answers
 * 403 with the reason, and is remembered for the tool that made the page ask.
 */
public final class EgressProxy implements AutoCloseable {

    private static final Logger LOG = MaskedLogs.of(EgressProxy.class);
    private static final int MAX_HEAD = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int HEAD_TIMEOUT_MILLIS = 30_000;
    private static final int KEPT_REFUSALS = 20;

    private final HostPolicy policy;
    private final ExecutorService connections;
    private final ServerSocket server;
    private final Deque<String> refusals = new ArrayDeque<>();
    private final List<Socket> open = new ArrayList<>();
    private volatile boolean closed;

    /** Listens on a free port of 127.0.0.1; each connection is served on {@code connections}. */
    public EgressProxy(HostPolicy policy, ExecutorService connections) throws IOException {
        this.policy = policy;
        this.connections = connections;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        Thread accept = new Thread(this::accept, "lango-egress-proxy-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    /** The proxy's address, as Chromium's proxy setting and git's http.proxy take it. */
    public String address() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** The refusals since the last call, oldest first (at most the last 20). */
    public synchronized List<String> takeRefusals() {
        List<String> taken = new ArrayList<>(refusals);
        refusals.clear();
        return taken;
    }

    private synchronized void refused(String what) {
        if (refusals.size() == KEPT_REFUSALS) {
            refusals.removeFirst();
        }
        refusals.addLast(what);
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "the egress proxy stopped accepting", e);
                }
                return;
            }
            if (!track(client)) {
                return;
            }
            try {
                connections.execute(() -> serve(client));
            } catch (RejectedExecutionException e) {
                closeQuietly(client);
            }
        }
    }

    private synchronized boolean track(Socket socket) {
        if (closed) {
            closeQuietly(socket);
            return false;
        }
        open.add(socket);
        return true;
    }

    private synchronized void untrack(Socket socket) {
        open.remove(socket);
        closeQuietly(socket);
    }

    private void serve(Socket client) {
        Socket upstream = null;
        try {
            client.setSoTimeout(HEAD_TIMEOUT_MILLIS);
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            String[] lines = head.split("\r\n");
            String[] request = lines[0].split(" ");
            if (request.length != 3) {
                answer(out, 400, "Bad Request", "not an HTTP request", null);
                return;
            }
            String method = request[0];
            if (method.equals("CONNECT")) {
                upstream = tunnel(request[1], out);
                if (upstream != null) {
                    client.setSoTimeout(0);
                    pipe(in, client, upstream);
                }
                return;
            }
            URI target = URI.create(request[1]);
            if (!"http".equalsIgnoreCase(target.getScheme()) || target.getHost() == null) {
                answer(out, 400, "Bad Request", "only absolute http URLs go through this proxy", null);
                return;
            }
            int port = target.getPort() >= 0 ? target.getPort() : 80;
            HostPolicy.Verdict verdict = policy.check(target.getHost(), port);
            String url = request[1];
            if (!verdict.allowed()) {
                refused(url + ": " + verdict.refusal());
                answer(out, 403, "Forbidden", "Lango's browser does not open " + url + ": " + verdict.refusal(), verdict.refusal());
                return;
            }
            upstream = connect(verdict.address(), port);
            if (upstream == null) {
                answer(out, 502, "Bad Gateway", "could not connect to " + target.getHost() + ":" + port, null);
                return;
            }
            String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
            if (target.getRawQuery() != null) {
                path += "?" + target.getRawQuery();
            }
            StringBuilder forwarded = new StringBuilder(method).append(' ').append(path).append(' ').append(request[2]).append("\r\n");
            for (int i = 1; i < lines.length; i++) {
                if (!hopByHop(lines[i])) {
                    forwarded.append(lines[i]).append("\r\n");
                }
            }
            forwarded.append("Connection: close\r\n\r\n");
            upstream.getOutputStream().write(forwarded.toString().getBytes(StandardCharsets.ISO_8859_1));
            upstream.getOutputStream().flush();
            client.setSoTimeout(0);
            Socket up = upstream;
            Thread body = startPump(in, up);
            InputStream upIn = new BufferedInputStream(up.getInputStream());
            String responseHead = readHead(upIn);
            if (responseHead != null) {
                StringBuilder response = new StringBuilder();
                for (String line : responseHead.split("\r\n")) {
                    if (!hopByHop(line)) {
                        response.append(line).append("\r\n");
                    }
                }
                response.append("Connection: close\r\n\r\n");
                out.write(response.toString().getBytes(StandardCharsets.ISO_8859_1));
                upIn.transferTo(out);
                out.flush();
            }
            body.interrupt();
        } catch (IOException | IllegalArgumentException e) {
            LOG.log(Level.FINE, "an egress proxy connection ended", e);
        } finally {
            if (upstream != null) {
                untrack(upstream);
            }
            untrack(client);
        }
    }

    /** Answers a CONNECT: the tunnel's upstream socket, or null after refusing it. */
    private Socket tunnel(String authority, OutputStream out) throws IOException {
        int colon = authority.lastIndexOf(':');
        if (colon < 0) {
            answer(out, 400, "Bad Request", "CONNECT needs host:port", null);
            return null;
        }
        String host = authority.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            answer(out, 400, "Bad Request", "CONNECT needs host:port", null);
            return null;
        }
        HostPolicy.Verdict verdict = policy.check(host, port);
        if (!verdict.allowed()) {
            refused(authority + ": " + verdict.refusal());
            answer(out, 403, "Forbidden", "Lango's browser does not open " + authority + ": " + verdict.refusal(), verdict.refusal());
            return null;
        }
        Socket upstream = connect(verdict.address(), port);
        if (upstream == null) {
            answer(out, 502, "Bad Gateway", "could not connect to " + authority, null);
            return null;
        }
        out.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return upstream;
    }

    private Socket connect(InetAddress address, int port) {
        Socket socket = new Socket();
        if (!track(socket)) {
            return null;
        }
        try {
            socket.connect(new InetSocketAddress(address, port), CONNECT_TIMEOUT_MILLIS);
            return socket;
        } catch (IOException e) {
            untrack(socket);
            return null;
        }
    }

    /** Copies both ways until either side closes. */
    private void pipe(InputStream fromClient, Socket client, Socket upstream) throws IOException {
        Thread up = startPump(fromClient, upstream);
        try {
            upstream.getInputStream().transferTo(client.getOutputStream());
        } catch (SocketException e) {
            // one side closed
        } finally {
            up.interrupt();
        }
    }

    /** Copies what the client sends to the upstream on its own thread (a request body, a tunnel's one direction). */
    private Thread startPump(InputStream from, Socket to) {
        Thread pump = new Thread(() -> {
            try {
                from.transferTo(to.getOutputStream());
            } catch (IOException e) {
                // the other direction ended the connection
            } finally {
                try {
                    to.shutdownOutput();
                } catch (IOException e) {
                    // already closed
                }
            }
        }, "lango-egress-proxy-pump");
        pump.setDaemon(true);
        pump.start();
        return pump;
    }

    private static boolean hopByHop(String header) {
        String name = header.contains(":") ? header.substring(0, header.indexOf(':')).strip().toLowerCase(Locale.ROOT) : "";
        return name.equals("connection") || name.equals("proxy-connection") || name.equals("keep-alive")
                || name.equals("proxy-authorization");
    }

    private static void answer(OutputStream out, int status, String reason, String text, String refusal) throws IOException {
        byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.length + "\r\n" + (refusal == null ? "" : "X-Lango-Refused: " + refusal.replaceAll("[\r\n]", " ") + "\r\n")
                + "Connection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    /** The bytes up to the blank line that ends a head, without it; null when the stream ends first. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (head.size() < MAX_HEAD) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                String text = head.toString(StandardCharsets.ISO_8859_1);
                return text.substring(0, text.length() - 4);
            }
        }
        throw new IOException("head longer than " + MAX_HEAD + " bytes");
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        List<Socket> sockets;
        synchronized (this) {
            closed = true;
            sockets = new ArrayList<>(open);
            open.clear();
        }
        closeQuietly(server);
        sockets.forEach(EgressProxy::closeQuietly);
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
