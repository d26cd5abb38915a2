/** The schedules edge: {@code /api/schedules}, a user's scheduled turns made, listed, paused and deleted over REST. */
package ai.lango.api.schedules;
