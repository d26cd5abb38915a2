package ai.lango.it;

/** {@link CrashIT} on PostgreSQL. */
@org.junit.jupiter.api.Tag(ItDatabase.POSTGRESQL_TAG)
class CrashPostgresqlIT extends CrashIT {

    CrashPostgresqlIT() {
        super(ItDatabase.POSTGRESQL);
    }
}
