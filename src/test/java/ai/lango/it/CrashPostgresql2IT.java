package ai.lango.it;

/** {@link CrashIT}: the second half of the cycles on PostgreSQL. */
@org.junit.jupiter.api.Tag(ItDatabase.POSTGRESQL_TAG)
class CrashPostgresql2IT extends CrashIT {

    CrashPostgresql2IT() {
        super(ItDatabase.POSTGRESQL, 1);
    }
}
