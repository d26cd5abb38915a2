package ai.lango.payment;

import java.util.Locale;
import java.util.regex.Pattern;
import org.web3j.crypto.Keys;

/**
 * An account address as EIP-55 writes it (mixed-case checksum). One in a single case is taken and
 * checksummed; one in mixed case must carry the right checksum, or it is refused as mistyped.
 */
public final class EvmAddress {

    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]{40}");

    private EvmAddress() {
    }

    /** The checksummed address; an IllegalArgumentException when it is not one or its checksum is wrong. */
    public static String checksummed(String text) {
        String t = text == null ? "" : text.strip();
        if (!HEX.matcher(t).matches()) {
            throw new IllegalArgumentException("\"" + text + "\" is not an address: 0x and 40 hexadecimal digits");
        }
        String checksummed = Keys.toChecksumAddress(t.toLowerCase(Locale.ROOT));
        String digits = t.substring(2);
        boolean singleCase = digits.equals(digits.toLowerCase(Locale.ROOT)) || digits.equals(digits.toUpperCase(Locale.ROOT));
        if (!singleCase && !checksummed.equals(t)) {
            throw new IllegalArgumentException("\"" + text + "\" fails its EIP-55 checksum (a mistyped address?); it would be "
                    + checksummed);
        }
        if (digits.chars().allMatch(c -> c == '0')) {
            throw new IllegalArgumentException("the zero address burns what is sent to it");
        }
        return checksummed;
    }
}
