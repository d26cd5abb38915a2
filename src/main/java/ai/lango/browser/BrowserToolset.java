package ai.lango.browser;

import ai.lango.artifact.ArtifactStore;
import ai.lango.config.LangoSettings;
import ai.lango.tool.Tool;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

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
        return List.of(new BrowserNavigate(settings, pool), new BrowserSnapshot(settings, pool), new BrowserClick(settings, pool),
                new BrowserType(settings, pool), new BrowserPressKey(settings, pool), new BrowserSelectOption(settings, pool),
                new BrowserWaitFor(settings, pool), new BrowserScreenshot(settings, pool, artifacts), new BrowserBack(settings, pool),
                new BrowserClose(settings, pool));
    }
}
