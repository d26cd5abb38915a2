package ai.lango.browser;

import ai.lango.artifact.ArtifactStore;
import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolArtifacts;
import ai.lango.tool.ToolException;
import ai.lango.tool.Toolset;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.options.AriaSnapshotMode;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.ScreenshotType;
import com.microsoft.playwright.options.WaitForSelectorState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The browser_ tools, after Playwright MCP's: navigate, snapshot (the page's accessibility tree with
 * a ref per element, cut to lango.tools.browser.snapshot-max-chars), click, type, press_key,
 * select_option, wait_for, screenshot (kept as a session artifact: the model gets its name), back
 * and close. A target is a ref from the last snapshot or a CSS selector. Navigating and reading are
 * moderate; typing, pressing keys and choosing options (what fills and submits forms) dangerous.
 * The executor's in multi-agent mode.
 */
@ApplicationScoped
public class BrowserToolset implements Toolset {

    /** The artifact every screenshot of a session is a new version of. */
    public static final String SCREENSHOT = "browser-screenshot.png";

    @Inject
    LangoSettings.Browser settings;

    @Inject
    BrowserPool pool;

    @Inject
    ArtifactStore artifacts;

    @Override
    public String name() {
        return "browser";
    }

    @Override
    public boolean enabled() {
        return settings.enabled();
    }

    @Override
    public int order() {
        return 64;
    }

    @Override
    public List<Tool> tools() {
        return List.of(new Navigate(), new Snapshot(), new Click(), new Type(), new PressKey(), new SelectOption(),
                new WaitFor(), new Screenshot(), new Back(), new Close());
    }

    /** The page as a result: URL, title, what happened since the last action, and the snapshot. */
    private Map<String, Object> page(BrowserPool.TabView tab, Optional<Locator> within) {
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

    private static String clip(String text, int max) {
        return text == null ? "" : text.length() <= max ? text : text.substring(0, max) + "…";
    }

    /** The element a target names; an error at once, not after the timeout, when nothing on the page matches. */
    private static Locator locate(Page page, String target) throws BrowserException {
        Locator locator = page.locator(Snapshots.selector(target));
        if (locator.count() == 0) {
            throw new BrowserException("nothing on the page matches \"" + target + "\" (refs change when the page does: take"
                    + " a new browser_snapshot)");
        }
        return locator;
    }

    /** After an action that may have started a navigation: its document loaded, if one started. */
    private void settle(Page page) {
        try {
            page.waitForLoadState(LoadState.DOMCONTENTLOADED, new Page.WaitForLoadStateOptions().setTimeout(5_000));
        } catch (PlaywrightException e) {
            // still loading: the snapshot shows what there is
        }
    }

    private abstract class Base extends DeclaredTool {
        Base(String name, Safety safety, String description) {
            super(name, safety, description);
        }

        @Override
        public Optional<Duration> timeout() {
            return Optional.of(settings.timeout().multipliedBy(3).plusSeconds(15));
        }

        @Override
        public Map<String, Object> call(Map<String, Object> args) throws ToolException {
            throw new ToolException("the browser works in a session");
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
    }

    private static Map<String, Object> target(String description) {
        return ToolArgs.string(description + ": a ref from the last snapshot (such as e12) or a CSS selector.");
    }

    private final class Navigate extends Base {
        Navigate() {
            super("browser_navigate", Safety.MODERATE, "Open a URL (http or https) in this session's browser page. Returns"
                    + " the URL, title and a snapshot: the page's accessibility tree, each element with a ref to act on.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("url", ToolArgs.string("The URL to open."));
            return ToolArgs.schema(properties, List.of("url"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String url = ToolArgs.required(args, "url").strip();
            HostPolicy.Verdict verdict = pool.policy().check(url);
            if (!verdict.allowed()) {
                throw new ToolException("refused: " + verdict.refusal());
            }
            return pool.act(session, true, tab -> {
                Response response = tab.page().navigate(url);
                Map<String, Object> out = new LinkedHashMap<>();
                if (response != null) {
                    out.put("status", response.status());
                    String refused = response.headers().get("x-lango-refused");
                    if (refused != null) {
                        out.put("refused", refused);
                    }
                }
                out.putAll(page(tab, Optional.empty()));
                return out;
            });
        }
    }

    private final class Snapshot extends Base {
        Snapshot() {
            super("browser_snapshot", Safety.MODERATE, "The current page's accessibility tree, each element with a ref;"
                    + " with target, only that element's part (to read a long page piece by piece).");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("target", target("Optional: only this element and what it contains"));
            return ToolArgs.schema(properties, List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String target = ToolArgs.optional(args, "target");
            return pool.act(session, false, tab -> page(tab, target == null ? Optional.empty() : Optional.of(locate(tab.page(), target))));
        }
    }

    private final class Click extends Base {
        Click() {
            super("browser_click", Safety.MODERATE, "Click an element of the page. Returns the page's new snapshot.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("target", target("The element to click"));
            return ToolArgs.schema(properties, List.of("target"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String target = ToolArgs.required(args, "target");
            return pool.act(session, false, tab -> {
                locate(tab.page(), target).click();
                settle(tab.page());
                return page(tab, Optional.empty());
            });
        }
    }

    private final class Type extends Base {
        Type() {
            super("browser_type", Safety.DANGEROUS, "Type text into an input field (replacing what it holds); with submit,"
                    + " press Enter after it. Returns the page's new snapshot.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("target", target("The input field"));
            properties.put("text", ToolArgs.string("The text to type."));
            properties.put("submit", Map.of("type", "boolean", "description", "Press Enter afterwards (submits most forms)."));
            return ToolArgs.schema(properties, List.of("target", "text"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String target = ToolArgs.required(args, "target");
            Object raw = args.get("text");
            if (!(raw instanceof String text)) {
                throw new ToolException("parameter \"text\" must be a string");
            }
            boolean submit = Boolean.TRUE.equals(args.get("submit")) || "true".equals(args.get("submit"));
            return pool.act(session, false, tab -> {
                Locator field = locate(tab.page(), target);
                field.fill(text);
                if (submit) {
                    field.press("Enter");
                    settle(tab.page());
                }
                return page(tab, Optional.empty());
            });
        }
    }

    private final class PressKey extends Base {
        PressKey() {
            super("browser_press_key", Safety.DANGEROUS, "Press a key on the page, such as Enter, Tab, ArrowDown, Escape or"
                    + " Control+A. Returns the page's new snapshot.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("key", ToolArgs.string("The key, by its name (Enter, ArrowLeft, a) or a combination (Shift+Tab)."));
            return ToolArgs.schema(properties, List.of("key"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String key = ToolArgs.required(args, "key").strip();
            return pool.act(session, false, tab -> {
                tab.page().keyboard().press(key);
                settle(tab.page());
                return page(tab, Optional.empty());
            });
        }
    }

    private final class SelectOption extends Base {
        SelectOption() {
            super("browser_select_option", Safety.DANGEROUS, "Choose options of a select element, by their values or"
                    + " labels. Returns the page's new snapshot.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("target", target("The select element"));
            properties.put("values", ToolArgs.stringArray("The options to choose (one, or several for a multiple select)."));
            return ToolArgs.schema(properties, List.of("target", "values"));
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String target = ToolArgs.required(args, "target");
            List<String> values = ToolArgs.strings(args, "values");
            if (values.isEmpty()) {
                throw new ToolException("parameter \"values\" must name at least one option");
            }
            return pool.act(session, false, tab -> {
                List<String> selected = locate(tab.page(), target).selectOption(values.toArray(String[]::new));
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("selected", selected);
                out.putAll(page(tab, Optional.empty()));
                return out;
            });
        }
    }

    private final class WaitFor extends Base {
        WaitFor() {
            super("browser_wait_for", Safety.MODERATE, "Wait until a text appears on the page, or disappears, or a number"
                    + " of seconds. Returns the page's snapshot then.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("text", ToolArgs.string("Wait until this text is visible."));
            properties.put("textGone", ToolArgs.string("Wait until this text is no longer visible."));
            properties.put("time", Map.of("type", "number", "description", "Wait this many seconds."));
            return ToolArgs.schema(properties, List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String text = ToolArgs.optional(args, "text");
            String gone = ToolArgs.optional(args, "textGone");
            Object time = args.get("time");
            if (text == null && gone == null && time == null) {
                throw new ToolException("give text, textGone or time");
            }
            double seconds;
            try {
                seconds = time == null ? 0 : time instanceof Number n ? n.doubleValue() : Double.parseDouble(time.toString());
            } catch (NumberFormatException e) {
                throw new ToolException("parameter \"time\" must be a number of seconds");
            }
            double most = settings.timeout().toSeconds();
            if (seconds < 0 || seconds > most) {
                throw new ToolException("parameter \"time\" must be from 0 to " + (long) most + " seconds"
                        + " (lango.tools.browser.timeout)");
            }
            return pool.act(session, false, tab -> {
                Page page = tab.page();
                if (seconds > 0) {
                    page.waitForTimeout(seconds * 1000);
                }
                if (text != null) {
                    page.getByText(text).first().waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE));
                }
                if (gone != null) {
                    page.getByText(gone).first().waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.HIDDEN));
                }
                return page(tab, Optional.empty());
            });
        }
    }

    private final class Screenshot extends Base {
        Screenshot() {
            super("browser_screenshot", Safety.MODERATE, "Take a PNG screenshot of the page (or one element, or the full"
                    + " scrollable page). It is kept as the session's artifact " + SCREENSHOT + ", a new version each"
                    + " time, which the user sees; you get its name and version, not the image.");
        }

        @Override
        public Map<String, Object> parameters() {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("target", target("Optional: only this element"));
            properties.put("fullPage", Map.of("type", "boolean", "description", "The whole scrollable page, not only the"
                    + " visible part."));
            return ToolArgs.schema(properties, List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
            String target = ToolArgs.optional(args, "target");
            boolean fullPage = Boolean.TRUE.equals(args.get("fullPage")) || "true".equals(args.get("fullPage"));
            Map<String, Object> out = new LinkedHashMap<>();
            byte[] png = pool.act(session, false, tab -> {
                out.put("url", tab.page().url());
                out.put("title", clip(tab.page().title(), 300));
                return target != null
                        ? locate(tab.page(), target).screenshot(new Locator.ScreenshotOptions().setType(ScreenshotType.PNG))
                        : tab.page().screenshot(new Page.ScreenshotOptions().setType(ScreenshotType.PNG).setFullPage(fullPage));
            });
            if (png.length > ArtifactStore.MAX_BYTES) {
                throw new ToolException("the screenshot has " + png.length + " bytes, more than an artifact may ("
                        + ArtifactStore.MAX_BYTES + "): take the visible part, or one element");
            }
            int version = artifacts.save(session, SCREENSHOT, "image/png", png);
            out.putAll(ToolArtifacts.reference(SCREENSHOT, version, "image/png", png.length));
            return out;
        }
    }

    private final class Back extends Base {
        Back() {
            super("browser_back", Safety.MODERATE, "Go back to the previous page. Returns its snapshot.");
        }

        @Override
        public Map<String, Object> parameters() {
            return ToolArgs.schema(new LinkedHashMap<>(), List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws BrowserException {
            return pool.act(session, false, tab -> {
                if (tab.page().goBack() == null) {
                    throw new BrowserException("there is no previous page");
                }
                return page(tab, Optional.empty());
            });
        }
    }

    private final class Close extends Base {
        Close() {
            super("browser_close", Safety.SAFE, "Close this session's browser page, with its cookies and storage.");
        }

        @Override
        public Map<String, Object> parameters() {
            return ToolArgs.schema(new LinkedHashMap<>(), List.of());
        }

        @Override
        Map<String, Object> run(Map<String, Object> args, SessionRef session) throws BrowserException {
            return Map.of("closed", pool.close(session));
        }
    }
}
