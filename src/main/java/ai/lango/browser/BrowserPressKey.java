package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.turn.SessionRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** browser_press_key: a key pressed on the page (dangerous: it submits forms). */
final class BrowserPressKey extends BrowserTool {

    BrowserPressKey(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_press_key", Safety.DANGEROUS, "Press a key on the page, such as Enter, Tab, ArrowDown, Escape or"
                + " Control+A. Returns the page's new snapshot.", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
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
