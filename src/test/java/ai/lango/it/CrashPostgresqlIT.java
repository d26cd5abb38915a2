package ai.lango.it;

/** {@link CrashIT} on PostgreSQL. */
class CrashPostgresqlIT extends CrashIT {

    CrashPostgresqlIT() {
        super(ItDatabase.POSTGRESQL);
    }
}
