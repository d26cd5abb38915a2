package ai.lango.it;

/** {@link CrashIT}: the second half of the cycles on the embedded HSQLDB database. */
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class CrashHsqldb2IT extends CrashIT {

    CrashHsqldb2IT() {
        super(ItDatabase.HSQLDB, 1);
    }
}
