package ai.lango.browser;

import ai.lango.artifact.ArtifactStore;
import ai.lango.config.LangoSettings;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolArtifacts;
import ai.lango.tool.ToolException;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ScreenshotType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** browser_screenshot: the page as a PNG, kept as a session artifact; the model gets its name. */
final class BrowserScreenshot extends BrowserTool {

    private final ArtifactStore artifacts;

    BrowserScreenshot(LangoSettings.Browser settings, BrowserPool pool, ArtifactStore artifacts) {
        super("browser_screenshot", Safety.MODERATE, "Take a PNG screenshot of the page (or one element, or the full"
                + " scrollable page). It is kept as the session's artifact " + BrowserToolset.SCREENSHOT + ", a new version each"
                + " time, which the user sees; you get its name and version, not the image.", schema(), settings, pool);
        this.artifacts = artifacts;
    }

    private static Map<String, Object> schema() {
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
        int version = artifacts.save(session, BrowserToolset.SCREENSHOT, "image/png", png);
        out.putAll(ToolArtifacts.reference(BrowserToolset.SCREENSHOT, version, "image/png", png.length));
        return out;
    }
}
