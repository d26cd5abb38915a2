package ai.lango.browser;

import ai.lango.net.egress.EgressProxy;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's browser context (its cookies and storage), the page its tools act on (the newest
 * one: a link that opens a tab moves there) and the proxy all of its traffic goes through. Used
 * only on the browser's thread.
 */
final class Tab {

    final BrowserContext context;
    final EgressProxy proxy;
    Page page;
    long lastUsedMillis;
    private final List<String> events = new ArrayList<>();

    Tab(BrowserContext context, EgressProxy proxy) {
        this.context = context;
        this.proxy = proxy;
        this.lastUsedMillis = System.currentTimeMillis();
    }

    /** Something the page did that the model should hear of (a dialog dismissed, a new tab). */
    void event(String what) {
        if (events.size() < 20) {
            events.add(what);
        }
    }

    /** The events and the proxy's refusals since the last call. */
    List<String> takeEvents() {
        List<String> taken = new ArrayList<>(events);
        events.clear();
        proxy.takeRefusals().forEach(refusal -> taken.add("refused " + refusal));
        return taken;
    }

    void close() {
        try {
            context.close();
        } catch (RuntimeException e) {
            // the browser may be gone already
        } finally {
            proxy.close();
        }
    }
}
