package ai.lango.api;

import ai.lango.usage.Budgets;
import ai.lango.usage.UsageRows;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the usage API answers, for a user's own report (/api/usage) and an administrator's (/api/admin/usage):
 * totals of a period and the same by day, model and session (and user), each as
 * {@code {"inputTokens","outputTokens","cachedTokens","costUsd","calls","estimatedCalls"}}.
 */
public final class UsageReports {

    /** The period when none is asked: the last 30 days. */
    static final int DEFAULT_DAYS = 30;

    private UsageReports() {
    }

    /** A period, {@code [from, to)}. */
    public record Period(Instant from, Instant to) {
    }

    /**
     * The period of {@code ?from=&to=}: dates (YYYY-MM-DD, UTC; {@code to} inclusive) or instants; the last 30 days when
     * unset. A 400 response for what cannot be read.
     */
    public static Object period(String from, String to) {
        Instant end;
        Instant start;
        try {
            end = to == null || to.isBlank() ? Instant.now() : instant(to, true);
            start = from == null || from.isBlank() ? LocalDate.ofInstant(end, ZoneOffset.UTC).minusDays(DEFAULT_DAYS - 1)
                    .atStartOfDay().toInstant(ZoneOffset.UTC) : instant(from, false);
        } catch (DateTimeParseException e) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_period",
                    "from and to are dates (2026-11-27) or instants (2026-11-27T10:00:00Z): " + e.getParsedString());
        }
        if (!start.isBefore(end)) {
            return ApiError.of(Response.Status.BAD_REQUEST, "invalid_period", "from must come before to");
        }
        return new Period(start, end);
    }

    private static Instant instant(String text, boolean endOfDay) {
        if (text.length() == 10) {
            LocalDate day = LocalDate.parse(text);
            return (endOfDay ? day.plusDays(1) : day).atStartOfDay().toInstant(ZoneOffset.UTC);
        }
        return Instant.parse(text);
    }

    /** The report of {@code user}'s calls (every user's when empty) in the period, grouped as the usage API says. */
    public static ObjectNode report(UsageRows rows, Optional<String> user, Optional<String> session, Period period,
                                    List<String> groups) {
        ObjectNode body = ApiJson.MAPPER.createObjectNode();
        user.ifPresent(u -> body.put("userId", u));
        session.ifPresent(s -> body.put("sessionKey", s));
        body.put("from", period.from().toString()).put("to", period.to().toString());
        body.set("totals", totals(rows.totals(user, session, period.from(), period.to(), null).getOrDefault("",
                new UsageRows.Totals(0, 0, 0, java.math.BigDecimal.ZERO, 0, 0))));
        for (String group : groups) {
            ArrayNode list = body.putArray("by" + Character.toUpperCase(group.charAt(0)) + group.substring(1));
            String field = group.equals("session") ? "sessionKey" : group.equals("user") ? "userId" : group;
            for (Map.Entry<String, UsageRows.Totals> entry : rows.totals(user, session, period.from(), period.to(), group).entrySet()) {
                ObjectNode row = list.addObject();
                if (entry.getKey() == null || entry.getKey().equals("null")) {
                    row.putNull(field);
                } else {
                    row.put(field, entry.getKey());
                }
                row.setAll(totals(entry.getValue()));
            }
        }
        return body;
    }

    static ObjectNode totals(UsageRows.Totals t) {
        return ApiJson.MAPPER.createObjectNode().put("inputTokens", t.inputTokens()).put("outputTokens", t.outputTokens())
                .put("cachedTokens", t.cachedTokens()).put("costUsd", t.costUsd().stripTrailingZeros().toPlainString())
                .put("calls", t.calls()).put("estimatedCalls", t.estimated());
    }

    /** Where a user stands against their budgets: limits in force (0: none), spent today and this month, resets. */
    public static ObjectNode budget(Budgets.Standing s) {
        return ApiJson.MAPPER.createObjectNode().put("tokensPerDay", s.tokensPerDay()).put("tokensToday", s.tokensToday())
                .put("costPerDay", s.costPerDay().stripTrailingZeros().toPlainString())
                .put("costToday", s.costToday().stripTrailingZeros().toPlainString())
                .put("costPerMonth", s.costPerMonth().stripTrailingZeros().toPlainString())
                .put("costThisMonth", s.costThisMonth().stripTrailingZeros().toPlainString())
                .put("dayResetsAt", s.dayResets().toString()).put("monthResetsAt", s.monthResets().toString());
    }
}
