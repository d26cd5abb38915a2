package ai.lango.skills;

import ai.lango.security.Ownership;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import java.util.Map;

/** What the skill tools share: a {@link SkillException} is a tool error, and only who may write what is shared adds skills. */
abstract class SkillTool extends DeclaredTool {

    SkillTool(String name, Safety safety, String description, Map<String, Object> parameters) {
        super(ToolFamily.SKILLS, name, safety, description, parameters);
    }

    @Override
    public final Map<String, Object> call(Map<String, Object> args, Caller caller) throws ToolException {
        try {
            return run(args, caller);
        } catch (SkillException e) {
            throw new ToolException(e.getMessage());
        }
    }

    abstract Map<String, Object> run(Map<String, Object> args, Caller caller) throws ToolException, SkillException;

    /** Skills are every user's: a caller who may not write what is shared gets a tool error. */
    static void requireWriter(Ownership ownership, Caller caller) throws ToolException {
        if (caller != null && caller.userId() != null && !ownership.mayWriteShared(caller.admin())) {
            throw new ToolException("skills are every user's: only an administrator adds them");
        }
    }
}
