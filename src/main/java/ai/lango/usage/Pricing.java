package ai.lango.usage;

import ai.lango.config.LangoSettings;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a model's tokens cost, in USD per million: built-in estimates of providers' list prices for common models,
 * overridden and extended by lango.pricing.&lt;model&gt;.*. A model takes the price of its name, else of the longest
 * known name it starts with (a dated version takes its family's price); names compare without case, with every
 * character that is not a letter or digit as '_' (the form an environment variable gives).
 */
public final class Pricing {

    /** Built-in estimates, USD per million tokens: input, output, cached input. Documented in docs/operations.md. */
    static final Map<String, LangoSettings.Price> BUILT_IN = new LinkedHashMap<>();

    static {
        price("gpt-4o", "2.50", "10.00", "1.25");
        price("gpt-4o-mini", "0.15", "0.60", "0.075");
        price("gpt-4.1", "2.00", "8.00", "0.50");
        price("gpt-4.1-mini", "0.40", "1.60", "0.10");
        price("gpt-4.1-nano", "0.10", "0.40", "0.025");
        price("gpt-5", "1.25", "10.00", "0.125");
        price("gpt-5-mini", "0.25", "2.00", "0.025");
        price("o4-mini", "1.10", "4.40", "0.275");
        price("claude-opus-4", "15.00", "75.00", "1.50");
        price("claude-sonnet-4", "3.00", "15.00", "0.30");
        price("claude-3-5-haiku", "0.80", "4.00", "0.08");
        price("claude-haiku-4", "1.00", "5.00", "0.10");
        price("gemini-2.5-pro", "1.25", "10.00", "0.31");
        price("gemini-2.5-flash", "0.30", "2.50", "0.075");
        price("gemini-2.0-flash", "0.10", "0.40", "0.025");
    }

    private static void price(String model, String input, String output, String cached) {
        BUILT_IN.put(model, new LangoSettings.Price(new BigDecimal(input), new BigDecimal(output), new BigDecimal(cached)));
    }

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /** Normalised name → price. */
    private final Map<String, LangoSettings.Price> prices = new LinkedHashMap<>();
    /** Normalised name → the name as written, for the table shown to operators. */
    private final Map<String, String> names = new LinkedHashMap<>();

    public Pricing(LangoSettings.Pricing configured) {
        BUILT_IN.forEach(this::put);
        configured.prices().forEach(this::put);
    }

    private void put(String model, LangoSettings.Price price) {
        prices.put(normal(model), price);
        names.put(normal(model), model);
    }

    static String normal(String model) {
        return model.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
    }

    /** The price in force for {@code model}; empty when neither its name nor a prefix of it is priced. */
    public Optional<LangoSettings.Price> of(String model) {
        if (model == null) {
            return Optional.empty();
        }
        String name = normal(model);
        String best = null;
        for (String known : prices.keySet()) {
            if ((name.equals(known) || name.startsWith(known + "_")) && (best == null || known.length() > best.length())) {
                best = known;
            }
        }
        return Optional.ofNullable(best).map(prices::get);
    }

    /** What these tokens of {@code model} cost; 0 for a model without a price. Cached tokens are part of the input. */
    public BigDecimal cost(String model, long input, long output, long cached) {
        return of(model).map(price -> {
            long uncached = Math.max(0, input - cached);
            BigDecimal cachedPrice = price.cached() == null ? price.input() : price.cached();
            return price.input().multiply(BigDecimal.valueOf(uncached))
                    .add(cachedPrice.multiply(BigDecimal.valueOf(cached)))
                    .add(price.output().multiply(BigDecimal.valueOf(output)))
                    .divide(MILLION, 9, RoundingMode.HALF_UP);
        }).orElse(BigDecimal.ZERO.setScale(9));
    }

    /** Every price in force, by model name as written. */
    public Map<String, LangoSettings.Price> table() {
        Map<String, LangoSettings.Price> table = new LinkedHashMap<>();
        prices.forEach((normal, price) -> table.put(names.get(normal), price));
        return table;
    }
}
