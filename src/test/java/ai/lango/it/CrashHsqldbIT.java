package ai.lango.it;

/** {@link CrashIT} on the embedded HSQLDB database, where the first start also imports an H2 database of an earlier version. */
class CrashHsqldbIT extends CrashIT {

    CrashHsqldbIT() {
        super(ItDatabase.HSQLDB);
    }
}
