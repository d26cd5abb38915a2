package ai.lango.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.database.SchemaMigrations;
import ai.lango.session.EmbeddedEngine;
import ai.lango.session.EmbeddedEngine.PooledDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The day's limit under a race: six payments of 0.30 USDC at once against a limit of 1.00 —
 * three pass and three are refused, never four — by the very UPDATE the ledger runs, on HSQLDB,
 * and on PostgreSQL when the tests have one (LANGO_TEST_POSTGRES_URL), where servers share it.
 */
class PaymentDayLimitTest {

    private static final long THIRTY_CENTS = 300_000;
    private static final long ONE_DOLLAR = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void onHsqldbTwoPaymentsThatOnlyOneFitsNeverBothPass() throws Exception {
        PooledDataSource pool = EmbeddedEngine.HSQLDB.open(dir);
        try {
            SchemaMigrations.migrate(pool.dataSource());
            race(pool.dataSource()::getConnection);
        } finally {
            pool.close();
        }
    }

    @Test
    void onPostgresqlTwoPaymentsThatOnlyOneFitsNeverBothPass() throws Exception {
        String url = System.getenv("LANGO_TEST_POSTGRES_URL");
        org.junit.jupiter.api.Assumptions.assumeTrue(url != null, "no PostgreSQL for the tests (LANGO_TEST_POSTGRES_URL)");
        String user = System.getenv().getOrDefault("LANGO_TEST_POSTGRES_USER", "postgres");
        String password = System.getenv().getOrDefault("LANGO_TEST_POSTGRES_PASSWORD", "");
        org.postgresql.ds.PGSimpleDataSource pg = new org.postgresql.ds.PGSimpleDataSource();
        pg.setUrl(url);
        pg.setUser(user);
        pg.setPassword(password);
        SchemaMigrations.migrate(pg);
        race(() -> DriverManager.getConnection(url, user, password));
    }

    @FunctionalInterface
    private interface Connections {
        Connection open() throws Exception;
    }

    private static void race(Connections connections) throws Exception {
        String wallet = "0x" + UUID.randomUUID().toString().replace("-", "") + "00000000";
        String day = PaymentLedger.today();
        try (Connection c = connections.open(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO lango_payment_days (wallet, pay_day, committed_units) VALUES (?, ?, 0)")) {
            insert.setString(1, wallet);
            insert.setString(2, day);
            insert.executeUpdate();
        }
        int payers = 6; // fewer than the embedded pool's 8 connections, all held at once
        CountDownLatch ready = new CountDownLatch(payers);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(payers);
        List<Future<Integer>> passed = new ArrayList<>();
        try {
            for (int i = 0; i < payers; i++) {
                passed.add(pool.submit((Callable<Integer>) () -> {
                    try (Connection c = connections.open(); PreparedStatement raise = c.prepareStatement(PaymentLedger.RAISE)) {
                        raise.setLong(1, THIRTY_CENTS);
                        raise.setString(2, wallet);
                        raise.setString(3, day);
                        raise.setLong(4, THIRTY_CENTS);
                        raise.setLong(5, ONE_DOLLAR);
                        ready.countDown();
                        go.await();
                        return raise.executeUpdate();
                    }
                }));
            }
            ready.await();
            go.countDown();
            int total = 0;
            for (Future<Integer> one : passed) {
                total += one.get();
            }
            assertEquals(3, total, "three of 0.30 fit 1.00");
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = connections.open(); PreparedStatement read = c.prepareStatement(
                "SELECT committed_units FROM lango_payment_days WHERE wallet = ? AND pay_day = ?")) {
            read.setString(1, wallet);
            read.setString(2, day);
            try (ResultSet r = read.executeQuery()) {
                r.next();
                assertEquals(3 * THIRTY_CENTS, r.getLong(1));
            }
        }
    }
}
