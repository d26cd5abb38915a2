package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Safety;
import ai.lango.turn.SessionRef;
import java.util.Map;
import java.util.Optional;

/** browser_back: the previous page. */
final class BrowserBack extends BrowserTool {

    BrowserBack(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_back", Safety.MODERATE, "Go back to the previous page. Returns its snapshot.", none(), settings, pool);
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
