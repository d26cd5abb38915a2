package ai.lango.skills;

/** A skill operation refused, with a message for the model or the operator. */
public class SkillException extends Exception {
    private static final long serialVersionUID = 1L;

    public SkillException(String message) {
        super(message);
    }
}
