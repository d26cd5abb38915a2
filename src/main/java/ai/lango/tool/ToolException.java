package ai.lango.tool;

/** A failure the model can act on: bad arguments, a path outside the workspace, a missing file. */
public class ToolException extends Exception {
    public ToolException(String message) {
        super(message);
    }
}
