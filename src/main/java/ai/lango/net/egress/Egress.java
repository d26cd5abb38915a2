package ai.lango.net.egress;

import ai.lango.config.LangoSettings;
import ai.lango.net.http.HttpPeers;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The way out for what the server fetches on the agent's behalf — the browser's pages, x402 fetches,
 * skill downloads and git clones: where it may go ({@link HostPolicy}, from {@code
 * lango.tools.browser.allowed-hosts} and {@code blocked-hosts}) and the {@link EgressProxy}s that
 * hold every connection to that. A browser context gets a proxy of its own (its refusals are its
 * tools'); the server's own fetches share one.
 */
@ApplicationScoped
public class Egress {

    @Inject
    LangoSettings.Browser settings;

    private HostPolicy policy;
    private ExecutorService connections;
    private EgressProxy shared;
    private HttpClient guarded;

    @PostConstruct
    void init() {
        policy = new HostPolicy(settings.allowedHosts(), settings.blockedHosts());
        connections = new ThreadPoolExecutor(0, 256, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "lango-egress-proxy");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Where the server's fetches may go. */
    public HostPolicy policy() {
        return policy;
    }

    /** A proxy of its own, of this policy, for one browser context; the caller closes it. */
    public EgressProxy openProxy() throws IOException {
        return new EgressProxy(policy(), connections);
    }

    /**
     * An HTTP client for the server's own fetches on the agent's behalf (x402, skill downloads): every connection,
     * redirects and tunnels included, goes through the shared proxy; it follows no redirect itself.
     */
    public synchronized HttpClient guardedHttp() throws IOException {
        if (guarded == null) {
            URI address = URI.create(guardProxy());
            guarded = HttpPeers.client(Duration.ofSeconds(10), HttpClient.Redirect.NEVER,
                    new InetSocketAddress(address.getHost(), address.getPort()));
        }
        return guarded;
    }

    /** The address (http://host:port) of the shared proxy, for a program the server runs on the agent's behalf (git). */
    public synchronized String guardProxy() throws IOException {
        if (shared == null) {
            shared = openProxy();
        }
        return shared.address();
    }

    @PreDestroy
    void stop() {
        synchronized (this) {
            if (shared != null) {
                shared.close();
            }
        }
        connections.shutdownNow();
    }
}
