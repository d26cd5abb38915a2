package ai.lango.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PricingTest {

    private static final Pricing BUILT_IN = new Pricing(new LangoSettings.Pricing(Map.of()));

    @Test
    void aCallCostsItsUncachedInputCachedInputAndOutputAtTheModelsPrices() {
        // gpt-4o-mini: 0.15 input, 0.075 cached, 0.60 output per million
        assertEquals(0, new BigDecimal("0.00001515").compareTo(BUILT_IN.cost("gpt-4o-mini", 60, 14, 30)));
    }

    @Test
    void aDatedVersionTakesItsFamilysPriceAndTheLongestNameWins() {
        assertEquals(new BigDecimal("0.15"), BUILT_IN.of("gpt-4o-mini-2024-07-18").orElseThrow().input());
        assertEquals(new BigDecimal("2.50"), BUILT_IN.of("gpt-4o-2024-08-06").orElseThrow().input());
        assertEquals(new BigDecimal("3.00"), BUILT_IN.of("claude-sonnet-4-20250514").orElseThrow().input());
    }

    @Test
    void aModelWithoutAPriceCostsNothing() {
        assertTrue(BUILT_IN.of("my-local-llama").isEmpty());
        assertEquals(0, BigDecimal.ZERO.compareTo(BUILT_IN.cost("my-local-llama", 1000, 1000, 0)));
    }

    @Test
    void aConfiguredPriceOverridesTheBuiltInOneAndNamesMatchAsEnvironmentVariablesWriteThem() {
        Pricing set = new Pricing(new LangoSettings.Pricing(Map.of(
                "gpt-4o-mini", new LangoSettings.Price(new BigDecimal("1"), new BigDecimal("2"), null),
                "my_local_llama", new LangoSettings.Price(new BigDecimal("0.01"), new BigDecimal("0.02"), null))));
        assertEquals(new BigDecimal("1"), set.of("gpt-4o-mini").orElseThrow().input());
        assertEquals(0, new BigDecimal("0.000003").compareTo(set.cost("gpt-4o-mini", 1, 1, 0)), "cached at the input price when unset");
        assertEquals(new BigDecimal("0.01"), set.of("my-local-llama").orElseThrow().input(), "LANGO_PRICING_MY_LOCAL_LLAMA_INPUT");
        assertTrue(set.table().containsKey("my_local_llama") && set.table().containsKey("claude-opus-4"));
    }
}
