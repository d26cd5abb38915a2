package ai.lango.it;

/** {@link CrashIT}: the first half of the cycles on the embedded HSQLDB database, where the first start also imports an H2 database of an earlier version. */
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class CrashHsqldbIT extends CrashIT {

    CrashHsqldbIT() {
        super(ItDatabase.HSQLDB, 0);
    }
}
