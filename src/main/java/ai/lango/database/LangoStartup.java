package ai.lango.database;

import ai.lango.config.InvalidConfigurationException;
import ai.lango.config.Keys;
import ai.lango.config.LangoSettings;
import ai.lango.config.Redaction;
import ai.lango.config.StartRefusal;
import ai.lango.masking.MaskedLogs;
import ai.lango.masking.SecretMask;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * What happens once when the application starts: validate the configuration, and refuse to run at
 * all where listening would be wrong (an invalid value, beyond loopback without a token, a port
 * another server holds: the server ends with one line that says what to fix), create the data directory,
 * migrate the schema, import what an earlier version kept in H2, and say where the data lives.
 */
@ApplicationScoped
public class LangoStartup {

    /** JNDI name of the data source that liberty/db/*.xml defines. */
    public static final String DATA_SOURCE = "jdbc/lango";
    /** The H2 file of earlier versions, for the one import at the first start (liberty/db/hsqldb.xml). */
    static final String H2_IMPORT_DATA_SOURCE = "jdbc/langoH2Import";

    private static final Logger LOG = MaskedLogs.of(LangoStartup.class);

    @Inject
    jakarta.enterprise.inject.Instance<LangoSettings> settings;

    void onStart(@Observes @Priority(100) @Initialized(ApplicationScoped.class) Object event) {
        try {
            start();
        } catch (InvalidConfigurationException | H2Import.RefusedException refused) {
            // A setting to fix ends the server with one line that names it, before the port opens: no half-started server.
            throw StartRefusal.exit(refused.getMessage());
        }
    }

    private void start() {
        LangoSettings config;
        try {
            config = settings.get();
        } catch (RuntimeException e) {
            // CDI wraps producer failures; the cause carries the one clear message.
            Throwable cause = e;
            while (cause != null && !(cause instanceof InvalidConfigurationException)) {
                cause = cause.getCause();
            }
            if (cause != null) {
                throw (InvalidConfigurationException) cause;
            }
            throw e;
        }
        // Masked from the first log line on.
        SecretMask.configured(config.secrets());
        // Before anything else (the database included): a second server on a taken port only says so and ends.
        if (StartRefusal.anotherProcessListens(config.http().port())) {
            throw new InvalidConfigurationException(StartRefusal.portTaken(config.http().host(), config.http().port()));
        }
        createDataDir(config.database().dataDir());
        DataSource dataSource = dataSource(config);
        SchemaMigrations.Database database = SchemaMigrations.migrate(dataSource);
        requireMatchingDatabase(config, database.product());
        if (config.database().kind() == LangoSettings.DbKind.HSQLDB) {
            importEarlierH2(config, dataSource);
        }
        LOG.info(() -> "Lango data directory: " + config.database().dataDir());
        LOG.info(() -> "Lango database: " + config.database().kind().key() + " - " + database.product() + " at "
                + Redaction.jdbcUrl(config.database().url().orElse(database.url())) + ", schema version " + database.schemaVersion());
    }

    /** What an earlier version kept in H2 beside the HSQLDB database is imported, or the start refused saying what to run. */
    private static void importEarlierH2(LangoSettings config, DataSource target) {
        try {
            H2Import.importIfPresent(config.database().dataDir().resolve("db"), target, () -> {
                try {
                    return InitialContext.doLookup(H2_IMPORT_DATA_SOURCE);
                } catch (NamingException e) {
                    throw new H2Import.RefusedException("found the H2 database of an earlier Lango version in "
                            + config.database().dataDir().resolve("db") + " but the server has no data source " + H2_IMPORT_DATA_SOURCE
                            + " to import it with (liberty/db/hsqldb.xml defines it)");
                }
            });
        } catch (H2Import.RefusedException e) {
            throw e;
        }
    }

    /** Looked up only after the configuration is known to be valid, so a bad lango.db.kind gets a clear message. */
    private static DataSource dataSource(LangoSettings config) {
        try {
            return InitialContext.doLookup(DATA_SOURCE);
        } catch (NamingException e) {
            String message = "the server has no data source " + DATA_SOURCE + " for " + Keys.DB_KIND + "="
                    + config.database().kind().key() + "; set LANGO_DB_KIND in the server's environment (hsqldb or postgresql)";
            throw new InvalidConfigurationException(message);
        }
    }

    private static void createDataDir(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (Exception e) {
            throw new InvalidConfigurationException(Keys.DATA_DIR + " \"" + dir
                    + "\" cannot be created (" + e.getMessage() + "); accepted: a writable directory");
        }
    }

    /** The server's data source is chosen by server.xml; refuse to run if it disagrees with lango.db.kind. */
    private static void requireMatchingDatabase(LangoSettings config, String product) {
        String expected = config.database().kind() == LangoSettings.DbKind.HSQLDB ? "hsql" : "postgres";
        if (!product.toLowerCase(Locale.ROOT).contains(expected)) {
            String message = Keys.DB_KIND + " is \"" + config.database().kind().key() + "\" but the server's data source is "
                    + product + "; set LANGO_DB_KIND in the server's environment so both agree";
            throw new InvalidConfigurationException(message);
        }
    }
}
