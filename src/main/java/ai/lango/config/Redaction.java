package ai.lango.config;

import java.util.regex.Pattern;

/** Keeps credentials out of shown settings and URLs (values in text: ai.lango.masking). */
public final class Redaction {

    public static final String MASK = "****";

    /** password=..., secret=... and similar parameters inside a JDBC URL, and user:pass@ credentials. */
    private static final Pattern URL_SECRET = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|sslpassword)=)[^&;]*");
    private static final Pattern URL_CREDENTIALS = Pattern.compile("(//[^/:@]+:)[^/@]*@");

    private Redaction() {
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
