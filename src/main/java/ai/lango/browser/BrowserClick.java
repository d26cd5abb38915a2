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

/** browser_click: an element clicked. */
final class BrowserClick extends BrowserTool {

    BrowserClick(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_click", Safety.MODERATE, "Click an element of the page. Returns the page's new snapshot.", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
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
