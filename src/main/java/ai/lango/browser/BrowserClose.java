package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Safety;
import ai.lango.turn.SessionRef;
import java.util.Map;

/** browser_close: the session's page closed, with its cookies and storage. */
final class BrowserClose extends BrowserTool {

    BrowserClose(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_close", Safety.SAFE, "Close this session's browser page, with its cookies and storage.", none(), settings, pool);
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, SessionRef session) throws BrowserException {
        return Map.of("closed", pool.close(session));
    }
}
