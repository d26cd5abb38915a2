package ai.lango.it;

/** {@link GracefulStopIT} on the embedded HSQLDB database. */
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class GracefulStopHsqldbIT extends GracefulStopIT {

    GracefulStopHsqldbIT() {
        super(ItDatabase.HSQLDB);
    }
}
