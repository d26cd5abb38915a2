/**
 * Schedules: a user's message run in their session at cron, every or at times. {@link ai.lango.schedule.Schedules} makes,
 * lists, pauses and deletes them for the API and the agent's tools ({@link ai.lango.schedule.SchedulesToolset});
 * {@link ai.lango.schedule.Timing} and {@link ai.lango.schedule.Cron} say when one fires, {@link ai.lango.schedule.Due}
 * what a late fire does; {@link ai.lango.schedule.ScheduleRows} stores them and lets one server claim each fire. The
 * fires themselves are turns, started by the application layer ({@code ai.lango.turns.ScheduledTurns}).
 */
package ai.lango.schedule;
