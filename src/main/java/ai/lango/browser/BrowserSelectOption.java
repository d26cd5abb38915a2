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

/** browser_select_option: options of a select element chosen (dangerous: it fills forms). */
final class BrowserSelectOption extends BrowserTool {

    BrowserSelectOption(LangoSettings.Browser settings, BrowserPool pool) {
        super("browser_select_option", Safety.DANGEROUS, "Choose options of a select element, by their values or"
                + " labels. Returns the page's new snapshot.", schema(), settings, pool);
    }

    private static Map<String, Object> schema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("target", target("The select element"));
        properties.put("values", ToolArgs.stringArray("The options to choose (one, or several for a multiple select)."));
        return ToolArgs.schema(properties, List.of("target", "values"));
    }

    @Override
    Map<String, Object> run(Map<String, Object> args, SessionRef session) throws ToolException, BrowserException {
        String target = ToolArgs.required(args, "target");
        List<String> values = ToolArgs.strings(args, "values");
        if (values.isEmpty()) {
            throw new ToolException("parameter \"values\" must name at least one option");
        }
        return pool.act(session, false, tab -> {
            List<String> selected = locate(tab.page(), target).selectOption(values.toArray(String[]::new));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("selected", selected);
            out.putAll(page(tab, Optional.empty()));
            return out;
        });
    }
}
