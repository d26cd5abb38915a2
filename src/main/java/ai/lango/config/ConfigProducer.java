package ai.lango.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The typed configuration, read once from MicroProfile Config (system properties, environment
 * variables such as LANGO_DB_KIND, server.xml variables, microprofile-config.properties), and each
 * subsystem's part of it as a bean of its own, so a subsystem injects only what it reads.
 */
@ApplicationScoped
public class ConfigProducer {

    private volatile EffectiveConfig effective;

    @Produces
    @Singleton
    LangoSettings settings() {
        Config config = ConfigProvider.getConfig(Thread.currentThread().getContextClassLoader());
        SettingsParser parser = new SettingsParser(key -> config.getOptionalValue(key, String.class), config.getPropertyNames(),
                Path.of(System.getProperty("user.home")));
        LangoSettings settings = parser.parse();
        // Liberty runs the server with its output directory as the working directory.
        SettingsParser.requireOutside(settings.database().dataDir(), Path.of(System.getProperty("user.dir")));
        effective = new EffectiveConfig(parser.effective());
        return settings;
    }

    /** What is in force, key by key (for the admin API). */
    @Produces
    @Singleton
    EffectiveConfig effective(LangoSettings settings) {
        return effective;
    }

    @Produces
    @Singleton
    LangoSettings.Database database(LangoSettings settings) {
        return settings.database();
    }

    @Produces
    @Singleton
    LangoSettings.Model model(LangoSettings settings) {
        return settings.model();
    }

    @Produces
    @Singleton
    LangoSettings.Schedules schedules(LangoSettings settings) {
        return settings.schedules();
    }

    @Produces
    @Singleton
    LangoSettings.Sessions sessions(LangoSettings settings) {
        return settings.sessions();
    }

    @Produces
    @Singleton
    LangoSettings.AgentLimits agent(LangoSettings settings) {
        return settings.agent();
    }

    @Produces
    @Singleton
    LangoSettings.ToolSettings tools(LangoSettings settings) {
        return settings.tools();
    }

    @Produces
    @Singleton
    LangoSettings.Access access(LangoSettings settings) {
        return settings.access();
    }

    @Produces
    @Singleton
    LangoSettings.Memory memory(LangoSettings settings) {
        return settings.memory();
    }

    @Produces
    @Singleton
    LangoSettings.Knowledge knowledge(LangoSettings settings) {
        return settings.knowledge();
    }

    @Produces
    @Singleton
    LangoSettings.Retrieval retrieval(LangoSettings settings) {
        return settings.retrieval();
    }

    @Produces
    @Singleton
    LangoSettings.Approval approval(LangoSettings settings) {
        return settings.approval();
    }

    @Produces
    @Singleton
    LangoSettings.Mcp mcp(LangoSettings settings) {
        return settings.mcp();
    }

    @Produces
    @Singleton
    LangoSettings.Skills skills(LangoSettings settings) {
        return settings.skills();
    }

    @Produces
    @Singleton
    LangoSettings.Payment payment(LangoSettings settings) {
        return settings.payment();
    }

    @Produces
    @Singleton
    LangoSettings.Browser browser(LangoSettings settings) {
        return settings.browser();
    }

    @Produces
    @Singleton
    LangoSettings.Vault vault(LangoSettings settings) {
        return settings.vault();
    }
}
