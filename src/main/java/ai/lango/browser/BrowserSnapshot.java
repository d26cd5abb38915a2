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

/** browser_snapshot: the page's accessibility tree, or one element's part of it. */
final class BrowserSnapshot extends BrowserTool {

    BrowserSnapshot(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_snapshot", Safety.MODERATE, "The current page's accessibility tree, each element with a ref;"
                + " with target, only that element's part (to read a long page piece by piece).", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
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
