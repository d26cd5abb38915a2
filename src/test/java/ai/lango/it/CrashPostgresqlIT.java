package ai.lango.it;

/** {@link CrashIT}: the first half of the cycles on PostgreSQL. */
@org.junit.jupiter.api.Tag(ItDatabase.POSTGRESQL_TAG)
class CrashPostgresqlIT extends CrashIT {

    CrashPostgresqlIT() {
        super(ItDatabase.POSTGRESQL, 0);
    }
}
