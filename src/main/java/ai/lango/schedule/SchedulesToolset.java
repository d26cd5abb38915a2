package ai.lango.schedule;

import ai.lango.config.LangoSettings;
import ai.lango.tool.Caller;
import ai.lango.tool.DeclaredTool;
import ai.lango.tool.Safety;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolArgs;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolFamily;
import ai.lango.tool.Toolset;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * schedule_create, schedule_list and schedule_delete: the agent schedules its user's turns ("remind me every Monday at 9
 * to …"), lists and deletes them — the caller's own only, as {@code /api/schedules} does. Moderate: what a schedule runs
 * later is a turn of the user's, within their budget and approvals, and a deleted one can be made again.
 */
@ApplicationScoped
public class SchedulesToolset implements Toolset {

    /** The family of the scheduling tools: they change the user's state, so the executor holds them. */
    public static final ToolFamily FAMILY = new ToolFamily("scheduling turns for later", ToolFamily.Holder.EXECUTOR);

    @Inject
    Schedules schedules;

    @Inject
    LangoSettings.Schedules settings;

    @Override
    public String name() {
        return "schedules";
    }

    @Override
    public boolean enabled() {
        return settings.enabled();
    }

    @Override
    public int order() {
        return 70;
    }

    @Override
    public List<Tool> tools() {
        return List.of(create(), list(), delete());
    }

    private DeclaredTool create() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("message", ToolArgs.string("What is said in the session at each time, as the user would say it"
                + " (e.g. \"check the build and tell me how it went\")."));
        properties.put("cron", ToolArgs.string("A cron expression, five fields: minute hour day-of-month month day-of-week"
                + " (e.g. \"0 9 * * MON\" for Mondays at 9, \"0 7 * * 1-5\" for weekdays at 7). Give one of cron, every, at."));
        properties.put("every", ToolArgs.string("An ISO-8601 duration, e.g. PT1H for every hour."));
        properties.put("at", ToolArgs.string("An instant for once, e.g. 2030-01-02T09:00:00Z."));
        properties.put("zone", ToolArgs.string("The IANA time zone of a cron's times, e.g. Europe/Berlin (default: the server's)."));
        properties.put("sessionKey", ToolArgs.string("The session the turns run in (default: this session)."));
        return DeclaredTool.of(FAMILY, "schedule_create", Safety.MODERATE, "Schedule a message to be run as a turn of the user"
                + " later: at cron times, every duration, or once at an instant. The answer comes in the session.",
                ToolArgs.schema(properties, List.of("message")), (args, caller) -> {
                    String sessionKey = ToolArgs.optional(args, "sessionKey");
                    try {
                        Schedule made = schedules.create(caller.userId(), new Schedules.Request(
                                sessionKey == null ? caller.sessionKey() : sessionKey,
                                ToolArgs.required(args, "message", Schedules.MAX_MESSAGE_CHARS, "a schedule's message"),
                                ToolArgs.optional(args, "cron"), ToolArgs.optional(args, "every"), ToolArgs.optional(args, "at"),
                                ToolArgs.optional(args, "zone")));
                        return described(made);
                    } catch (Timing.InvalidSchedule e) {
                        throw new ToolException("parameter \"" + e.field() + "\": " + e.getMessage());
                    } catch (Schedules.LimitReached e) {
                        throw new ToolException(e.getMessage());
                    }
                });
    }

    private DeclaredTool list() {
        return DeclaredTool.of(FAMILY, "schedule_list", Safety.MODERATE, "List the user's scheduled turns: id, message, when,"
                + " next time, last result.", ToolArgs.schema(new LinkedHashMap<>(), List.of()),
                (args, caller) -> Map.of("schedules", schedules.of(caller.userId()).stream().map(SchedulesToolset::described).toList()));
    }

    private DeclaredTool delete() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("id", ToolArgs.string("The schedule's id (from schedule_list or schedule_create)."));
        return DeclaredTool.of(FAMILY, "schedule_delete", Safety.MODERATE, "Delete one of the user's scheduled turns: it"
                + " runs no more.", ToolArgs.schema(properties, List.of("id")), (args, caller) -> {
                    String id = ToolArgs.required(args, "id").strip();
                    if (!schedules.delete(caller.userId(), id)) {
                        throw new ToolException("there is no schedule " + id + " of yours to delete");
                    }
                    return Map.of("status", "deleted", "id", id);
                });
    }

    static Map<String, Object> described(Schedule s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", s.id());
        out.put("sessionKey", s.sessionKey());
        out.put("message", s.message());
        out.put(s.kind(), s.spec());
        out.put("zone", s.zone());
        out.put("paused", s.paused());
        out.put("next", s.upcoming().map(Object::toString).orElse(null));
        out.put("lastResult", s.lastResult().orElse(null));
        return out;
    }
}
