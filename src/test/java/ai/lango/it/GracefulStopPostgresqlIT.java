package ai.lango.it;

/** {@link GracefulStopIT} on PostgreSQL. */
@org.junit.jupiter.api.Tag(ItDatabase.POSTGRESQL_TAG)
class GracefulStopPostgresqlIT extends GracefulStopIT {

    GracefulStopPostgresqlIT() {
        super(ItDatabase.POSTGRESQL);
    }
}
