package ai.lango.it;

/**
 * {@link DurableTurnIT} on PostgreSQL: a server started again on its host and port takes back the turns its earlier run
 * left running at once, without waiting for their leases to expire.
 */
@org.junit.jupiter.api.Tag(ItDatabase.POSTGRESQL_TAG)
class DurableTurnPostgresqlIT extends DurableTurnIT {

    DurableTurnPostgresqlIT() {
        super(ItDatabase.POSTGRESQL);
    }
}
