package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.net.egress.Egress;
import ai.lango.net.egress.EgressProxy;
import ai.lango.net.egress.HostPolicy;
import ai.lango.session.SessionDeleted;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.Proxy;
import com.microsoft.playwright.options.ServiceWorkerPolicy;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The one headless Chromium of this server and a context per session in it. Playwright is not
 * thread-safe, so everything it does runs on one thread of its own (an engine); a tool waits for
 * its action there. A browser that crashes is started again on next use (a navigation is then
 * retried, another action is not, since it may already have had its effect); one that hangs is
 * killed, processes and all, and a new engine takes over. Contexts unused for the session timeout
 * are closed, and the browser with the last of them; beyond max-contexts the least recently used
 * goes. A session whose context went reopens its last page when next used.
 */
@ApplicationScoped
public class BrowserPool {

    private static final Logger LOG = MaskedLogs.of(BrowserPool.class);
    /** Last pages remembered for reopening, at most. */
    private static final int REMEMBERED_PAGES = 10_000;

    @Inject
    LangoSettings.Browser settings;

    @Inject
    LangoSettings.Database database;

    /** Where pages may go, and the proxy each context's traffic goes through. */
    @Inject
    Egress egress;

    private ScheduledExecutorService reaper;
    private Engine engine;
    private final Map<String, String> lastUrls = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > REMEMBERED_PAGES;
        }
    };

    /** An action on a session's tab, run on the browser's thread. */
    @FunctionalInterface
    public interface Action<T> {
        T run(TabView tab) throws BrowserException;
    }

    @PostConstruct
    void init() {
        reaper = Executors.newSingleThreadScheduledExecutor(daemon("lango-browser-reaper"));
        long period = Math.max(1000, Math.min(30_000, settings.sessionTimeout().toMillis() / 2));
        reaper.scheduleWithFixedDelay(this::reap, period, period, TimeUnit.MILLISECONDS);
    }

    /** Where the browser may go. */
    public HostPolicy policy() {
        return egress.policy();
    }

    /** How long one Playwright call may take. */
    double actionTimeoutMillis() {
        return settings.timeout().toMillis();
    }

    /**
     * Runs {@code action} on the session's page. {@code navigates}: the action opens a page itself,
     * so a context that is new does not reopen the last one first, and after a crash it is simply
     * tried again.
     */
    public <T> T act(SessionRef session, boolean navigates, Action<T> action) throws BrowserException {
        Engine current = engine();
        try {
            return current.call(() -> current.act(session, !navigates, action));
        } catch (Crashed crashed) {
            LOG.warning("the browser stopped (" + crashed.getMessage() + "); starting it again");
            retire(current);
            Engine fresh = engine();
            try {
                if (navigates) {
                    return fresh.call(() -> fresh.act(session, false, action));
                }
                String reopened = fresh.call(() -> fresh.tab(session, true).url());
                throw new BrowserException("the browser had stopped and was started again; the page was reopened at "
                        + reopened + ". Take a new browser_snapshot (refs changed) and try again.");
            } catch (Crashed again) {
                retire(fresh);
                throw new BrowserException("the browser stopped again (" + again.getMessage() + "); try later");
            }
        }
    }

    /** The host (with ":port" when not the scheme's default) of the page the session's last action left, if any. */
    public Optional<String> lastHost(SessionRef session) {
        String url;
        synchronized (lastUrls) {
            url = lastUrls.get(session.scope());
        }
        return url == null ? Optional.empty() : HostPolicy.destination(url);
    }

    /** Closes the session's context, if it has one; its last page is forgotten. */
    public boolean close(SessionRef session) throws BrowserException {
        synchronized (lastUrls) {
            lastUrls.remove(session.scope());
        }
        Engine current = currentEngine();
        if (current == null) {
            return false;
        }
        try {
            return current.call(() -> current.closeTab(session.scope()));
        } catch (Crashed crashed) {
            retire(current);
            return false;
        }
    }

    void sessionDeleted(@Observes SessionDeleted deleted) {
        synchronized (lastUrls) {
            lastUrls.remove(deleted.session().scope());
        }
        Engine current = currentEngine();
        if (current != null) {
            current.later(() -> current.closeTab(deleted.session().scope()));
        }
    }

    /** Whether Chromium runs now, and how many sessions have a context in it. */
    public record Status(boolean running, int contexts) {
    }

    /** What runs now (for operators). */
    public Status status() {
        Engine current = currentEngine();
        if (current == null) {
            return new Status(false, 0);
        }
        try {
            return current.call(() -> new Status(current.browser != null && current.browser.isConnected(), current.tabs.size()));
        } catch (BrowserException | Crashed e) {
            return new Status(false, 0);
        }
    }

    private synchronized Engine engine() {
        if (engine == null) {
            engine = new Engine();
        }
        return engine;
    }

    private synchronized Engine currentEngine() {
        return engine;
    }

    /** Takes the engine out of service (if it still is) and ends it, killing its processes. */
    private void retire(Engine old) {
        synchronized (this) {
            if (engine == old) {
                engine = null;
            }
        }
        old.kill();
    }

    private void reap() {
        Engine current = currentEngine();
        if (current != null) {
            current.later(() -> {
                if (current.reap(settings.sessionTimeout().toMillis())) {
                    synchronized (this) {
                        if (engine == current) {
                            engine = null;
                        }
                    }
                    current.shutdown();
                }
                return null;
            });
        }
    }

    @PreDestroy
    void stop() {
        reaper.shutdownNow();
        Engine current;
        synchronized (this) {
            current = engine;
            engine = null;
        }
        if (current != null) {
            try {
                current.thread.submit(current::closeAll).get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.log(Level.FINE, "the browser did not close in time", e);
            }
            current.kill();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** The browser stopped under an action: its engine must go. */
    private static final class Crashed extends Exception {
        Crashed(String message) {
            super(message);
        }
    }

    /** What an action sees of a session's tab. */
    public final class TabView {
        private final Tab tab;

        TabView(Tab tab) {
            this.tab = tab;
        }

        public Page page() {
            return tab.page;
        }

        /** The events of the page and the refusals of its proxy since the last action. */
        public List<String> events() {
            return tab.takeEvents();
        }

        /** The page's URL, remembered to reopen it. */
        public String url() {
            return tab.page.url();
        }
    }

    /** One browser process, on one thread, and the sessions' tabs in it. */
    private final class Engine {
        final ExecutorService thread = Executors.newSingleThreadExecutor(daemon("lango-browser"));
        /** Passed to Chromium as an argument nobody reads, to find its processes by. */
        final String marker = "--lango-browser=" + UUID.randomUUID();
        final Map<String, Tab> tabs = new HashMap<>();
        Playwright playwright;
        Browser browser;
        Set<Long> driverPids = Set.of();
        long idleSinceMillis = System.currentTimeMillis();

        /** Runs on the engine's thread; waits while others' actions run, but no longer than twice the timeout for its own. */
        <T> T call(Callable<T> task) throws BrowserException, Crashed {
            long[] started = {0};
            Future<T> future = thread.submit(() -> {
                started[0] = System.currentTimeMillis();
                try {
                    return task.call();
                } catch (PlaywrightException e) {
                    if (browser == null || !browser.isConnected() || gone(e)) {
                        throw new Crashed(firstLine(e));
                    }
                    if (e instanceof com.microsoft.playwright.TimeoutError) {
                        // A page that took too long, or a browser that stopped answering? The browser process
                        // answers this even when a page's renderer is stuck; if it does not, the wait below ends the engine.
                        browser.newBrowserCDPSession().send("Browser.getVersion");
                    }
                    throw new BrowserException(firstLine(e));
                }
            });
            long limit = settings.timeout().toMillis() * 2 + 5_000;
            long submitted = System.currentTimeMillis();
            while (true) {
                try {
                    return future.get(250, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    long now = System.currentTimeMillis();
                    long start = started[0];
                    if (start > 0 && now - start > limit) {
                        future.cancel(true);
                        retire(this);
                        throw new BrowserException("the browser did not answer within " + limit / 1000
                                + " s and was started again; the page is gone: navigate again");
                    }
                    if (start == 0 && now - submitted > 3 * limit) {
                        future.cancel(false);
                        throw new BrowserException("the browser is busy with other sessions' pages; try again shortly");
                    }
                } catch (InterruptedException e) {
                    future.cancel(true);
                    Thread.currentThread().interrupt();
                    throw new BrowserException("interrupted");
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof BrowserException b) {
                        throw b;
                    }
                    if (cause instanceof Crashed c) {
                        throw c;
                    }
                    if (cause instanceof java.util.concurrent.RejectedExecutionException) {
                        throw new Crashed("the browser was stopped");
                    }
                    LOG.log(Level.WARNING, "a browser action failed", cause);
                    throw new BrowserException(cause.getClass().getSimpleName() + ": " + cause.getMessage());
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    throw new Crashed("the browser was stopped");
                }
            }
        }

        /** Runs on the engine's thread without waiting; nothing when the engine has ended. */
        void later(Callable<?> task) {
            try {
                thread.submit(() -> {
                    try {
                        task.call();
                    } catch (Exception | Error e) {
                        LOG.log(Level.FINE, "browser housekeeping failed", e);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // ended
            }
        }

        /** The session's tab, opened (and, when {@code reopen}, at its last page) if it has none. */
        TabView tab(SessionRef session, boolean reopen) throws BrowserException {
            String scope = session.scope();
            Tab tab = tabs.get(scope);
            if (tab == null) {
                if (tabs.size() >= settings.maxContexts()) {
                    tabs.entrySet().stream().min(Comparator.comparingLong(e -> e.getValue().lastUsedMillis))
                            .map(Map.Entry::getKey).ifPresent(this::closeTab);
                }
                tab = open();
                tabs.put(scope, tab);
                String last;
                synchronized (lastUrls) {
                    last = lastUrls.get(scope);
                }
                if (reopen && last != null) {
                    tab.event("this session's browser context had been closed (unused, or to make room, or the browser"
                            + " restarted): its page was reopened at " + last + ", without its cookies or form input");
                    try {
                        tab.page.navigate(last);
                    } catch (PlaywrightException e) {
                        tab.event("reopening " + last + " failed: " + firstLine(e));
                    }
                }
            }
            if (tab.page.isClosed()) {
                List<Page> pages = tab.context.pages();
                tab.page = pages.isEmpty() ? tab.context.newPage() : pages.get(pages.size() - 1);
            }
            tab.lastUsedMillis = System.currentTimeMillis();
            return new TabView(tab);
        }

        /** The action on the session's tab; the page it leaves, remembered to reopen. */
        <T> T act(SessionRef session, boolean reopen, Action<T> action) throws BrowserException {
            TabView tab = tab(session, reopen);
            try {
                return action.run(tab);
            } finally {
                tab.tab.lastUsedMillis = System.currentTimeMillis();
                String url = tab.page().isClosed() ? "" : tab.url();
                if (url.startsWith("http:") || url.startsWith("https:")) {
                    synchronized (lastUrls) {
                        lastUrls.put(session.scope(), url);
                    }
                }
            }
        }

        private Tab open() throws BrowserException {
            start();
            EgressProxy proxy;
            try {
                proxy = egress.openProxy();
            } catch (IOException e) {
                throw new BrowserException("could not open the browser's proxy: " + e.getMessage());
            }
            BrowserContext context = browser.newContext(new Browser.NewContextOptions()
                    .setProxy(new Proxy(proxy.address()).setBypass("<-loopback>"))
                    .setServiceWorkers(ServiceWorkerPolicy.BLOCK)
                    .setAcceptDownloads(false)
                    .setViewportSize(1280, 800));
            context.setDefaultTimeout(actionTimeoutMillis());
            context.setDefaultNavigationTimeout(actionTimeoutMillis());
            Tab tab = new Tab(context, proxy);
            context.onPage(page -> {
                if (tab.page != null) {
                    tab.event("the page opened a new tab (" + page.url() + "); the tools now act on it");
                }
                tab.page = page;
                page.onDialog(dialog -> {
                    tab.event("a " + dialog.type() + " dialog said \"" + dialog.message() + "\" and was dismissed");
                    dialog.dismiss();
                });
            });
            context.newPage();
            return tab;
        }

        /** Starts Playwright's driver and Chromium, if not yet. */
        private void start() throws BrowserException {
            if (browser != null) {
                return;
            }
            try {
                // Read by Playwright when its driver is first created: a preinstalled driver, not one it unpacks itself.
                System.setProperty("playwright.cli.dir", DriverFiles.unpack(database.dataDir().resolve("browser")).toString());
            } catch (IOException e) {
                throw new BrowserException(e.getMessage());
            }
            Set<Long> before = children();
            try {
                playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of(
                        "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1",
                        "PLAYWRIGHT_NODEJS_PATH", settings.node().toString())));
                Set<Long> after = children();
                after.removeAll(before);
                driverPids = after;
                browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                        .setExecutablePath(settings.executable())
                        .setHeadless(true)
                        .setTimeout(Math.max(30_000, actionTimeoutMillis()))
                        .setArgs(List.of(marker,
                                // Nothing leaves but through a context's proxy: the browser-wide one goes nowhere.
                                "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                "--no-first-run", "--disable-quic", "--disable-gpu", "--dns-prefetch-disable",
                                "--webrtc-ip-handling-policy=disable_non_proxied_udp", "--force-webrtc-ip-handling-policy")));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the browser did not start", e);
                closeAll();
                throw new BrowserException("the browser did not start (" + settings.executable() + " with Node.js "
                        + settings.node() + "): " + firstLine(e));
            }
            LOG.info("browser started: " + settings.executable() + " " + browser.version());
        }

        private Set<Long> children() {
            return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
        }

        boolean closeTab(String scope) {
            Tab tab = tabs.remove(scope);
            if (tab != null) {
                tab.close();
            }
            if (tabs.isEmpty()) {
                idleSinceMillis = System.currentTimeMillis();
            }
            return tab != null;
        }

        /** Closes the tabs unused for {@code idleMillis}; whether the browser, left with none as long, should end. */
        boolean reap(long idleMillis) {
            long now = System.currentTimeMillis();
            tabs.entrySet().stream().filter(e -> now - e.getValue().lastUsedMillis > idleMillis).map(Map.Entry::getKey)
                    .toList().forEach(this::closeTab);
            return tabs.isEmpty() && now - idleSinceMillis > idleMillis;
        }

        Void closeAll() {
            List.copyOf(tabs.keySet()).forEach(this::closeTab);
            try {
                if (browser != null) {
                    browser.close();
                }
                if (playwright != null) {
                    playwright.close();
                }
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing the browser failed", e);
            }
            browser = null;
            playwright = null;
            return null;
        }

        /** Closes it all in order, on its thread, then ends the thread. */
        void shutdown() {
            later(this::closeAll);
            thread.shutdown();
        }

        /** Ends it now: the thread, Chromium's processes and the driver's, whatever state they are in. */
        void kill() {
            thread.shutdownNow();
            tabs.values().forEach(tab -> tab.proxy.close());
            ProcessHandle.allProcesses()
                    .filter(p -> p.info().arguments().map(args -> List.of(args).contains(marker)).orElse(false)
                            || driverPids.contains(p.pid()))
                    .forEach(p -> {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                    });
        }
    }

    /** Whether the failure says the browser, its connection or the driver is gone. */
    private static boolean gone(PlaywrightException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("Browser has been closed") || message.contains("Playwright connection closed")
                || message.contains("browser has been closed") || message.contains("Target closed");
    }

    /** The first line of a Playwright message, without its call log. */
    static String firstLine(Throwable e) {
        String message = Optional.ofNullable(e.getMessage()).orElse(e.getClass().getSimpleName()).strip();
        String first = message.lines().findFirst().orElse(message);
        return first.startsWith("Error {") ? message.lines().filter(l -> l.strip().startsWith("message='"))
                .findFirst().map(l -> l.strip().substring("message='".length()).replaceAll("'$", "")).orElse(first) : first;
    }
}
