package ai.lango.usage;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** The budgets set for one user (lango_usage_budgets); null: the setting's. */
@Entity
@Table(name = "lango_usage_budgets")
public class UsageBudgetEntity {

    @Id
    @Column(name = "user_id", nullable = false)
    private String userId;

    @Column(name = "tokens_per_day")
    private Long tokensPerDay;

    @Column(name = "cost_per_day")
    private BigDecimal costPerDay;

    @Column(name = "cost_per_month")
    private BigDecimal costPerMonth;

    protected UsageBudgetEntity() {
    }

    UsageBudgetEntity(String userId, Budgets.Limits limits) {
        this.userId = userId;
        set(limits);
    }

    void set(Budgets.Limits limits) {
        this.tokensPerDay = limits.tokensPerDay();
        this.costPerDay = limits.costPerDay();
        this.costPerMonth = limits.costPerMonth();
    }

    Budgets.Limits limits() {
        return new Budgets.Limits(tokensPerDay, costPerDay, costPerMonth);
    }
}
