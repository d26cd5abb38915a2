package ai.lango.it;

/** {@link GracefulStopIT} on the embedded HSQLDB database. */
class GracefulStopHsqldbIT extends GracefulStopIT {

    GracefulStopHsqldbIT() {
        super(ItDatabase.HSQLDB);
    }
}
