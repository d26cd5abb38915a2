package ai.lango.it;

/** {@link GracefulStopIT} on PostgreSQL. */
class GracefulStopPostgresqlIT extends GracefulStopIT {

    GracefulStopPostgresqlIT() {
        super(ItDatabase.POSTGRESQL);
    }
}
