package ai.lango.it;

/** {@link DurableTurnIT} on the embedded HSQLDB database: a server started again resumes every turn it left running. */
@org.junit.jupiter.api.Tag(ItDatabase.HSQLDB_TAG)
class DurableTurnHsqldbIT extends DurableTurnIT {

    DurableTurnHsqldbIT() {
        super(ItDatabase.HSQLDB);
    }
}
