package ai.lango.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Settings for tests that run parts of the server without it: the defaults, changed where a test says. */
public final class TestSettings {

    private TestSettings() {
    }

    /** The defaults under {@code dir}: HSQLDB, no model, exec off, no token. */
    public static LangoSettings defaults(Path dir) {
        return new LangoSettings(new LangoSettings.Http(9080, "localhost"),
                new LangoSettings.Database(dir, LangoSettings.DbKind.HSQLDB, Optional.empty(), Optional.empty(), Optional.empty()),
                new LangoSettings.Model(Optional.empty(), Optional.empty()), new LangoSettings.Sessions(Duration.ZERO, 0),
                new LangoSettings.AgentLimits(false, 25, 10, true, Duration.ofMinutes(5)),
                new LangoSettings.ToolSettings(dir.resolve("workspace"), false, Duration.ofSeconds(60)),
                new LangoSettings.Access(Optional.empty(), List.of()), LangoSettings.A2a.DISABLED, LangoSettings.Memory.DISABLED,
                LangoSettings.Knowledge.DISABLED, LangoSettings.Retrieval.DEFAULTS, LangoSettings.Approval.DEFAULT,
                new LangoSettings.Vault(Optional.empty(), LangoSettings.Vault.keyFileIn(dir), true, false),
                LangoSettings.Skills.in(dir), LangoSettings.Browser.OFF, LangoSettings.Payment.OFF);
    }

    /** With this provider (at {@code baseUrl}, key "sk-test") and model. */
    public static LangoSettings withModel(LangoSettings settings, String provider, String baseUrl, String model) {
        return withModel(settings, new LangoSettings.Model(Optional.of(new LangoSettings.ModelProvider(provider,
                Optional.ofNullable(baseUrl), Optional.of("sk-test"))), Optional.ofNullable(model)));
    }

    public static LangoSettings withModel(LangoSettings s, LangoSettings.Model model) {
        return new LangoSettings(s.http(), s.database(), model, s.sessions(), s.agent(), s.tools(), s.access(), s.a2a(), s.memory(), s.knowledge(), s.retrieval(), s.approval(), s.vault(), s.skills(), s.browser(), s.payment());
    }

    public static LangoSettings withSessions(LangoSettings s, LangoSettings.Sessions sessions) {
        return new LangoSettings(s.http(), s.database(), s.model(), sessions, s.agent(), s.tools(), s.access(), s.a2a(), s.memory(), s.knowledge(), s.retrieval(), s.approval(), s.vault(), s.skills(), s.browser(), s.payment());
    }

    public static LangoSettings withMemory(LangoSettings s, LangoSettings.Memory memory) {
        return new LangoSettings(s.http(), s.database(), s.model(), s.sessions(), s.agent(), s.tools(), s.access(), s.a2a(), memory, s.knowledge(), s.retrieval(), s.approval(), s.vault(), s.skills(), s.browser(), s.payment());
    }

    public static LangoSettings withAgent(LangoSettings s, LangoSettings.AgentLimits agent) {
        return new LangoSettings(s.http(), s.database(), s.model(), s.sessions(), agent, s.tools(), s.access(), s.a2a(), s.memory(), s.knowledge(), s.retrieval(), s.approval(), s.vault(), s.skills(), s.browser(), s.payment());
    }
}
