package ai.lango.payment;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * USDC amounts: exact decimals with at most 6 places (the token's), held as base units (one
 * millionth of a dollar) in a BigInteger. Never a floating-point number: "0.1" is 100000 units,
 * exactly.
 */
public final class Usdc {

    public static final int DECIMALS = 6;
    /** A plain decimal: digits, optionally a point and up to 6 more; no sign, exponent or separators. */
    private static final Pattern AMOUNT = Pattern.compile("(0|[1-9][0-9]{0,11})(\\.[0-9]{1,6})?");

    private Usdc() {
    }

    /** The base units of a decimal such as "0.05"; an IllegalArgumentException says what is accepted. */
    public static BigInteger parse(String text) {
        String t = text == null ? "" : text.strip();
        if (!AMOUNT.matcher(t).matches()) {
            throw new IllegalArgumentException("\"" + text + "\" is not an amount of USDC: a decimal such as 0.05 or 12.5,"
                    + " at most 6 decimal places, no sign or exponent");
        }
        return new BigDecimal(t).movePointRight(DECIMALS).toBigIntegerExact();
    }

    /** An amount given as JSON: a string ("0.05") or a number written in the JSON as such, never a double's rounding. */
    public static BigInteger parse(Object value) {
        if (value instanceof String s) {
            return parse(s);
        }
        if (value instanceof BigDecimal d) {
            return parse(d.toPlainString());
        }
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger) {
            return parse(value.toString());
        }
        if (value instanceof Double || value instanceof Float) {
            // A JSON number the parser read as a double: its shortest decimal form is what was written.
            return parse(BigDecimal.valueOf(((Number) value).doubleValue()).stripTrailingZeros().toPlainString());
        }
        throw new IllegalArgumentException("an amount of USDC is a decimal string such as \"0.05\"");
    }

    /** Base units as a decimal with at least two places: 50000 → "0.05", 1000000 → "1.00", 1 → "0.000001". */
    public static String format(BigInteger units) {
        BigDecimal value = new BigDecimal(units).movePointLeft(DECIMALS).stripTrailingZeros();
        return value.scale() < 2 ? value.setScale(2).toPlainString() : value.toPlainString();
    }
}
