package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.AriaSnapshotMode;
import com.microsoft.playwright.options.LoadState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the browser_ tools share: they work in the caller's session (its own page, see {@link
 * BrowserPool}); a {@link BrowserException} is a tool error naming the tool; an action answers with
 * the page as it is then (URL, title, what happened, the snapshot).
 */
abstract class BrowserTool extends DeclaredTool {

    protected final LangoSettings.Browser settings;
    protected final BrowserPool pool;

    BrowserTool(String name, Safety safety, String description, Map<String, Object> parameters, LangoSettings.Browser settings,
                BrowserPool pool) {
        super(ToolFamily.BROWSER, name, safety, description, parameters);
        this.settings = settings;
        this.pool = pool;
    }

    @Override
    public Optional<Duration> timeout() {
        return Optional.of(settings.timeout().multipliedBy(3).plusSeconds(15));
    }

    @Override
    public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        SessionRef session = caller == null ? null : caller.session();
        if (session == null) {
            throw new ToolException("the browser works in a session");
        }
        try {
            return run(args, session);
        } catch (BrowserException e) {
            throw new ToolException(name() + ": " + e.getMessage());
        }
    }

    abstract Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException;

    /** What an action on the page gives goes to the page's site: the host of the page the last action left. */
    @Override
    public Optional<String> destination(Map<String, Object> args, Caller caller) {
        SessionRef session = caller == null ? null : caller.session();
        return Optional.of(session == null ? "*" : pool.lastHost(session).orElse("*"));
    }

    /** A target parameter: a ref from the last snapshot or a CSS selector. */
    static Map<String, Object> target(String description) {
        return ToolArgs.string(description + ": a ref from the last snapshot (such as e12) or a CSS selector.");
    }

    /** A schema of no parameters. */
    static Map<String, Object> none() {
        return ToolArgs.schema(new LinkedHashMap<>(), List.of());
    }

    /** The page as a result: URL, title, what happened since the last action, and the snapshot. */
    Map<String, Object> page(BrowserPool.TabView tab, Optional<Locator> within) {
        Map<String, Object> out = new LinkedHashMap<>();
        Page page = tab.page();
        out.put("url", page.url());
        out.put("title", clip(page.title(), 300));
        List<String> events = tab.events();
        if (!events.isEmpty()) {
            out.put("events", events);
        }
        String snapshot = within.map(l -> l.ariaSnapshot(new Locator.AriaSnapshotOptions().setMode(AriaSnapshotMode.AI)))
                .orElseGet(() -> page.ariaSnapshot(new Page.AriaSnapshotOptions().setMode(AriaSnapshotMode.AI)));
        out.put("snapshot", Snapshots.cap(snapshot, settings.snapshotMaxChars()));
        return out;
    }

    static String clip(String text, int max) {
        return text == null ? "" : text.length() <= max ? text : text.substring(0, max) + "…";
    }

    /** The element a target names; an error at once, not after the timeout, when nothing on the page matches. */
    static Locator locate(Page page, String target) throws BrowserException {
        Locator locator = page.locator(Snapshots.selector(target));
        if (locator.count() == 0) {
            throw new BrowserException("nothing on the page matches \"" + target + "\" (refs change when the page does: take"
                    + " a new browser_snapshot)");
        }
        return locator;
    }

    /** After an action that may have started a navigation: its document loaded, if one started. */
    static void settle(Page page) {
        try {
            page.waitForLoadState(LoadState.DOMCONTENTLOADED, new Page.WaitForLoadStateOptions().setTimeout(5_000));
        } catch (PlaywrightException e) {
            // still loading: the snapshot shows what there is
        }
    }
}
