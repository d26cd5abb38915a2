package ai.lango.payment;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;

/** A wallet's row for a day in lango_payment_days, created in a transaction of its own. */
@ApplicationScoped
public class PaymentDayRows {

    @PersistenceContext(unitName = "lango")
    EntityManager em;

    /** Creates the row at zero; fails when another transaction created it first. */
    @Transactional(TxType.REQUIRES_NEW)
    public void create(String wallet, String day) {
        em.createNativeQuery("INSERT INTO lango_payment_days (wallet, pay_day, committed_units) VALUES (?, ?, 0)")
                .setParameter(1, wallet).setParameter(2, day).executeUpdate();
    }
}
