package ai.lango.payment;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * lango_payments and lango_payment_days: every payment stored before it is signed, each change its
 * own transaction. A payment counts against the day's limit from the moment it is reserved — the
 * day's total raised by one conditional UPDATE that only succeeds within the limit — until it
 * fails, when it is released exactly once (the status moves under a WHERE on the old one).
 */
@ApplicationScoped
@Transactional(TxType.REQUIRES_NEW)
public class PaymentLedger {

    /** Raises a wallet's day by an amount only if the day stays within the limit: (amount, wallet, day, amount, limit). */
    static final String RAISE = "UPDATE lango_payment_days SET committed_units = committed_units + ? WHERE wallet = ? AND pay_day = ?"
            + " AND committed_units + ? <= ?";

    private static final String COLUMNS = "id, kind, user_id, session_key, wallet, chain_id, to_address, amount_units, purpose,"
            + " pay_day, status, nonce, tx_hash, detail, valid_before, created_at, updated_at";

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    @jakarta.inject.Inject
    PaymentDayRows days;

    /** The UTC day a payment made now counts for, as yyyy-mm-dd. */
    public static String today() {
        return LocalDate.now(ZoneOffset.UTC).toString();
    }

    /** What counts against the wallet's limit today: sent, in flight and reserved. */
    public BigInteger committed(String wallet, String day) {
        List<?> rows = em.createNativeQuery("SELECT committed_units FROM lango_payment_days WHERE wallet = ? AND pay_day = ?")
                .setParameter(1, wallet).setParameter(2, day).getResultList();
        return rows.isEmpty() ? BigInteger.ZERO : BigInteger.valueOf(((Number) rows.get(0)).longValue());
    }

    /**
     * Stores a payment as reserved if it fits what is left of the day's {@code maxDaily}; empty when it
     * does not (nothing stored).
     */
    public Optional<String> reserve(Payment.Kind kind, String userId, String sessionKey, String wallet, long chainId, String to,
                                    BigInteger amount, String purpose, BigInteger maxDaily, boolean approved) {
        String day = today();
        ensureDay(wallet, day);
        int raised = em.createNativeQuery(RAISE)
                .setParameter(1, amount.longValueExact()).setParameter(2, wallet).setParameter(3, day)
                .setParameter(4, amount.longValueExact()).setParameter(5, maxDaily.longValueExact()).executeUpdate();
        if (raised == 0) {
            return Optional.empty();
        }
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        em.createNativeQuery("INSERT INTO lango_payments (" + COLUMNS + ", approved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        + " NULL, NULL, NULL, NULL, ?, ?, ?)")
                .setParameter(1, id).setParameter(2, kind.name()).setParameter(3, userId).setParameter(4, sessionKey)
                .setParameter(5, wallet).setParameter(6, chainId).setParameter(7, to).setParameter(8, amount.longValueExact())
                .setParameter(9, purpose).setParameter(10, day).setParameter(11, Payment.Status.RESERVED.name())
                .setParameter(12, now).setParameter(13, now).setParameter(14, approved).executeUpdate();
        return Optional.of(id);
    }

    /** The day's row, created at zero if missing (in a transaction of its own: another server may create it at once). */
    private void ensureDay(String wallet, String day) {
        if (em.createNativeQuery("SELECT 1 FROM lango_payment_days WHERE wallet = ? AND pay_day = ?").setParameter(1, wallet)
                .setParameter(2, day).getResultList().isEmpty()) {
            try {
                days.create(wallet, day);
            } catch (RuntimeException createdByAnother) {
                // the primary key was taken a moment ago: the row is there
            }
        }
    }

    /**
     * The nonce to sign the wallet's next transaction with: the chain's pending count, or one past
     * the highest this ledger gave a transaction not known to have failed — under a lock on the
     * wallet's day row, so two servers never take the same one. {@code record} stores the signed
     * transaction's nonce and hash in the same transaction.
     */
    public <T> T withNextNonce(String wallet, BigInteger pending, NonceUse<T> use) throws Exception {
        String day = today();
        ensureDay(wallet, day);
        em.createNativeQuery("UPDATE lango_payment_days SET committed_units = committed_units WHERE wallet = ? AND pay_day = ?")
                .setParameter(1, wallet).setParameter(2, day).executeUpdate();
        List<?> used = em.createNativeQuery("SELECT nonce FROM lango_payments WHERE wallet = ? AND kind = 'SEND' AND nonce IS NOT NULL"
                + " AND status IN ('SIGNED', 'SENT', 'CONFIRMED')").setParameter(1, wallet).getResultList();
        BigInteger next = pending;
        for (Object nonce : used) {
            next = next.max(new BigInteger(nonce.toString()).add(BigInteger.ONE));
        }
        return use.apply(next, this::recordSigned);
    }

    /** What is done with the nonce, given the way to record the signed transaction. */
    @FunctionalInterface
    public interface NonceUse<T> {
        T apply(BigInteger nonce, SignedRecorder recorder) throws Exception;
    }

    @FunctionalInterface
    public interface SignedRecorder {
        void signed(String id, BigInteger nonce, String hash);
    }

    private void recordSigned(String id, BigInteger nonce, String hash) {
        move(id, Payment.Status.RESERVED, Payment.Status.SIGNED, nonce.toString(), hash, null, null);
    }

    /** An x402 authorization handed to the seller: its nonce and when it stops being valid. */
    public boolean authorized(String id, String nonce, long validBefore) {
        return move(id, Payment.Status.RESERVED, Payment.Status.AUTHORIZED, nonce, null, null, validBefore);
    }

    /**
     * Moves a payment from {@code from} to {@code to}, setting the values given (null: kept); false
     * when it was not in {@code from} (another got there first). A move to failed releases its amount.
     */
    public boolean move(String id, Payment.Status from, Payment.Status to, String nonce, String hash, String detail, Long validBefore) {
        StringBuilder sql = new StringBuilder("UPDATE lango_payments SET status = ?, updated_at = ?");
        List<Object> values = new java.util.ArrayList<>(List.of(to.name(), System.currentTimeMillis()));
        // Only the columns given: PostgreSQL cannot type a NULL bound to COALESCE(?, column).
        set(sql, values, "nonce", nonce);
        set(sql, values, "tx_hash", hash);
        set(sql, values, "detail", clip(detail));
        set(sql, values, "valid_before", validBefore);
        sql.append(" WHERE id = ? AND status = ?");
        values.add(id);
        values.add(from.name());
        jakarta.persistence.Query update = em.createNativeQuery(sql.toString());
        for (int i = 0; i < values.size(); i++) {
            update.setParameter(i + 1, values.get(i));
        }
        int moved = update.executeUpdate();
        if (moved == 1 && !to.counts()) {
            Payment payment = find(id).orElseThrow();
            em.createNativeQuery("UPDATE lango_payment_days SET committed_units = committed_units - ? WHERE wallet = ? AND pay_day = ?")
                    .setParameter(1, payment.amount().longValueExact()).setParameter(2, payment.wallet())
                    .setParameter(3, payment.day()).executeUpdate();
        }
        return moved == 1;
    }

    private static void set(StringBuilder sql, List<Object> values, String column, Object value) {
        if (value != null) {
            sql.append(", ").append(column).append(" = ?");
            values.add(value);
        }
    }

    public Optional<Payment> find(String id) {
        return rows(em.createNativeQuery("SELECT " + COLUMNS + " FROM lango_payments WHERE id = ?").setParameter(1, id)
                .getResultList()).stream().findFirst();
    }

    /** The wallet's payments, newest first. */
    public List<Payment> history(String wallet, int limit) {
        return rows(em.createNativeQuery("SELECT " + COLUMNS + " FROM lango_payments WHERE wallet = ? ORDER BY created_at DESC")
                .setParameter(1, wallet).setMaxResults(limit).getResultList());
    }

    /** The newest payments of {@code userId}'s turns from the wallet, at most {@code limit}. */
    public List<Payment> historyOf(String wallet, String userId, int limit) {
        return rows(em.createNativeQuery("SELECT " + COLUMNS + " FROM lango_payments WHERE wallet = ? AND user_id = ?"
                + " ORDER BY created_at DESC").setParameter(1, wallet).setParameter(2, userId).setMaxResults(limit).getResultList());
    }

    /**
     * What {@code userId}'s turns paid of {@code kind} without a person's approval since {@code since}
     * (epoch milliseconds), failed payments left out.
     */
    public BigInteger unapprovedSince(String userId, Payment.Kind kind, long since) {
        Object sum = em.createNativeQuery("SELECT COALESCE(SUM(amount_units), 0) FROM lango_payments WHERE user_id = ?"
                        + " AND kind = ? AND approved = FALSE AND status <> 'FAILED' AND created_at >= ?")
                .setParameter(1, userId).setParameter(2, kind.name()).setParameter(3, since).getSingleResult();
        return BigInteger.valueOf(((Number) sum).longValue());
    }

    /** Payments whose outcome is not known yet, oldest first. */
    public List<Payment> open(String wallet) {
        return rows(em.createNativeQuery("SELECT " + COLUMNS + " FROM lango_payments WHERE wallet = ? AND status IN ('RESERVED',"
                + " 'SIGNED', 'SENT', 'AUTHORIZED') ORDER BY created_at").setParameter(1, wallet).getResultList());
    }

    private static String clip(String text) {
        return text == null || text.length() <= 1000 ? text : text.substring(0, 1000) + "…";
    }

    private static List<Payment> rows(List<?> rows) {
        return rows.stream().map(row -> {
            Object[] r = (Object[]) row;
            return new Payment((String) r[0], Payment.Kind.valueOf((String) r[1]), (String) r[2], (String) r[3], (String) r[4],
                    ((Number) r[5]).longValue(), (String) r[6], BigInteger.valueOf(((Number) r[7]).longValue()), (String) r[8],
                    (String) r[9], Payment.Status.valueOf((String) r[10]), (String) r[11], (String) r[12], (String) r[13],
                    r[14] == null ? null : ((Number) r[14]).longValue(), Instant.ofEpochMilli(((Number) r[15]).longValue()),
                    Instant.ofEpochMilli(((Number) r[16]).longValue()));
        }).toList();
    }
}
