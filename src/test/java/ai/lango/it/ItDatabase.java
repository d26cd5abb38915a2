package ai.lango.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The databases a test that runs servers of its own (CrashIT, GracefulStopIT, ScaleOutIT) runs them
 * on: one class per database, in the failsafe execution of that database (tagged with it), beside
 * the Arquillian tests and the other such tests; each database's servers have names, ports and
 * data directories of their own. PostgreSQL is the one LANGO_TEST_POSTGRES_URL names (.ci/run sets
 * it when PostgreSQL answers locally).
 */
enum ItDatabase {
    HSQLDB("", 0), POSTGRESQL("-pg", 1);

    /**
     * The tag of the tests that run servers of their own, concurrently with the Arquillian tests and
     * with each other; and the tags of their database, which choose the failsafe execution they run in.
     * Such a class is {@code @Execution(CONCURRENT)}, and each of its test methods
     * {@code @Execution(SAME_THREAD)}: the class's mode would otherwise run its methods at once, on
     * one server (a kill in one test under another's turn). An Arquillian test whose subject does
     * not depend on the database (a page in a browser) carries the embedded database's tag alone: it
     * runs once, in that execution.
     */
    static final String OWN_SERVERS = "own-servers";
    static final String HSQLDB_TAG = "hsqldb";
    static final String POSTGRESQL_TAG = "postgresql";

    private final String suffix;
    private final int index;

    ItDatabase(String suffix, int index) {
        this.suffix = suffix;
        this.index = index;
    }

    /** Skips the calling test class when this database is not there. */
    void assumeAvailable() {
        assumeTrue(this == HSQLDB || System.getenv("LANGO_TEST_POSTGRES_URL") != null,
                "PostgreSQL is not configured (LANGO_TEST_POSTGRES_URL)");
    }

    /**
     * The environment of a server of this test run on this database: the build's LANGO_* settings
     * (provider, model, key) with this database, the data directory and the port.
     */
    Map<String, String> environment(Path dataDir, int port) {
        return environment(dataDir, port, "shared");
    }

    /**
     * The same, on PostgreSQL in the database of {@code group} (the servers of one test class): a turn a killed server
     * left running is taken over by another server of its database — of its own test, never of another one.
     */
    Map<String, String> environment(Path dataDir, int port, String group) {
        Map<String, String> environment = new HashMap<>();
        System.getenv().forEach((key, value) -> {
            if (key.startsWith("LANGO_") && !key.startsWith("LANGO_DB_") && !key.startsWith("LANGO_TEST_")) {
                environment.put(key, value);
            }
        });
        if (this == POSTGRESQL) {
            environment.put("LANGO_DB_KIND", "postgresql");
            environment.put("LANGO_DB_URL", postgresUrl(group));
            String user = System.getenv("LANGO_TEST_POSTGRES_USER");
            if (user != null) {
                environment.put("LANGO_DB_USER", user);
            }
        }
        environment.put("LANGO_HTTP_PORT", String.valueOf(port));
        environment.put("LANGO_DATA_DIR", dataDir.toAbsolutePath().toString());
        // A server killed or restarted every few seconds never repays C2's compile time; C1 alone starts it faster
        // (it.jvm.flags: pom.xml's test.jvm.flags, the one place they are written, without the Arquillian server's heap).
        environment.put("JVM_ARGS", System.getProperty("it.jvm.flags", ""));
        return environment;
    }

    /** The databases these servers use on the PostgreSQL server LANGO_TEST_POSTGRES_URL names: one per group. */
    static final String OWN_DATABASE = "lango_own_servers";

    /**
     * The JDBC URL of {@link #OWN_DATABASE} + "_" + {@code group}, created the first time: these servers run beside the
     * Arquillian tests, which count rows of their own database (vectors computed, sessions listed) that another
     * server's writes would change, and beside each other.
     */
    static synchronized String postgresUrl(String group) {
        String database = OWN_DATABASE + "_" + group.replaceAll("[^a-z0-9]", "_");
        String base = System.getenv("LANGO_TEST_POSTGRES_URL");
        String url = base.replaceFirst("(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
        if (CREATED.add(database)) {
            try (java.sql.Connection connection = java.sql.DriverManager.getConnection(base,
                    System.getenv("LANGO_TEST_POSTGRES_USER"), "");
                 java.sql.Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + database);
            } catch (java.sql.SQLException e) {
                if (!"42P04".equals(e.getSQLState())) { // duplicate_database: an earlier run made it
                    throw new IllegalStateException("cannot create the database " + database, e);
                }
            }
        }
        return url;
    }

    private static final java.util.Set<String> CREATED = new java.util.HashSet<>();

    /** A name for this database's copy of a test's data: "it-data-stop", "it-data-stop-pg". */
    String name(String base) {
        return base + suffix;
    }

    /**
     * The name of a test's server on this database: "lango-own-crash", "lango-own-crash-pg". Never
     * one that contains the Arquillian server's name (it.server.name): Arquillian's Liberty container
     * finds its server among the running JVMs by that name, and took a test's server for its own.
     */
    String server(String role) {
        return System.getProperty("it.own.server.prefix", "lango-own") + "-" + role + suffix;
    }

    /** Ports apart per database: a test's base offset plus this. */
    int offset() {
        return index;
    }

    boolean postgresql() {
        return this == POSTGRESQL;
    }
}
