package ai.lango.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/** Keeps secrets out of logs and responses. */
public final class Redaction {

    public static final String MASK = "****";

    /** password=..., secret=... and similar parameters inside a JDBC URL, and user:pass@ credentials. */
    private static final Pattern URL_SECRET = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|sslpassword)=)[^&;]*");
    private static final Pattern URL_CREDENTIALS = Pattern.compile("(//[^/:@]+:)[^/@]*@");

    /**
     * Configured secrets shorter than this are not searched for in text: masking every "abc" would
     * mangle output while protecting nothing a real key or token looks like.
     */
    public static final int MIN_SECRET_LENGTH = 8;

    private Redaction() {
    }

    /** The secrets worth searching for: long enough, without duplicates, longest first (so none masks part of another). */
    public static List<String> searchable(Collection<String> secrets) {
        return secrets.stream().filter(Objects::nonNull).filter(s -> s.length() >= MIN_SECRET_LENGTH).distinct()
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    /** {@code text} with every occurrence of each of the {@link #searchable} secrets replaced by {@link #MASK}. */
    public static String secrets(String text, List<String> searchable) {
        if (text == null) {
            return null;
        }
        String masked = text;
        for (String secret : searchable) {
            if (masked.contains(secret)) {
                masked = masked.replace(secret, MASK);
            }
        }
        return masked;
    }

    public static String jdbcUrl(String url) {
        return url(url);
    }

    /** Any URL: user:pass@ credentials and password=, token=, secret=… parameters masked. */
    public static String url(String url) {
        if (url == null) {
            return null;
        }
        String masked = URL_SECRET.matcher(url).replaceAll("$1" + MASK);
        return URL_CREDENTIALS.matcher(masked).replaceAll("$1" + MASK + "@");
    }
}
