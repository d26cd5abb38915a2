package ai.lango.tool;

/** A tool whose name, safety and description are fixed when it is made: what a toolset's tools share. */
public abstract class DeclaredTool implements Tool {

    private final String name;
    private final Safety safety;
    private final String description;

    protected DeclaredTool(String name, Safety safety, String description) {
        this.name = name;
        this.safety = safety;
        this.description = description;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Safety safety() {
        return safety;
    }

    @Override
    public String description() {
        return description;
    }
}
