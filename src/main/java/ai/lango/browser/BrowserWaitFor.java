package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.WaitForSelectorState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** browser_wait_for: a text appearing, disappearing, or some seconds. */
final class BrowserWaitFor extends BrowserTool {

    BrowserWaitFor(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_wait_for", Safety.MODERATE, "Wait until a text appears on the page, or disappears, or a number"
                + " of seconds. Returns the page's snapshot then.", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
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
