package ai.lango.browser;

import ai.lango.config.LangoSettings;
import ai.lango.net.egress.HostPolicy;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.turn.SessionRef;
import com.microsoft.playwright.Locator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** browser_type: text typed into a field (dangerous: it fills and submits forms). */
final class BrowserType extends BrowserTool {

    BrowserType(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_type", Safety.DANGEROUS, "Type text into an input field (replacing what it holds); with submit,"
                + " press Enter after it. Returns the page's new snapshot.", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
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
        Optional<String> expected = pool.lastHost(session);
        return pool.act(session, false, tab -> {
            // What is typed goes to the site the call was checked (and approved) for: a page that moved away since is
            // not typed into.
            Optional<String> now = HostPolicy.destination(tab.url());
            if (expected.isPresent() && !expected.equals(now)) {
                throw new BrowserException("the page moved to " + now.orElse(tab.url()) + " since the last action (it was on "
                        + expected.get() + "): take a new browser_snapshot before typing");
            }
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
