package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.net.egress.HostPolicy;
import ai.lango.tool.Caller;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** browser_navigate: a URL opened in the session's page, if the host policy allows it. */
final class BrowserNavigate extends BrowserTool {

    BrowserNavigate(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_navigate", Safety.MODERATE, "Open a URL (http or https) in this session's browser page. Returns"
                + " the URL, title and a snapshot: the page's accessibility tree, each element with a ref to act on.", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("url", ToolArgs.string("The URL to open."));
        return ToolArgs.schema(properties, List.of("url"));
    }

    /** Where the page is asked for: the URL's host. */
    @Override
    public Optional<String> destination(Map<String, Object> args, Caller caller) {
        return Optional.of(args.get("url") instanceof String url ? HostPolicy.destination(url).orElse("*") : "*");
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
