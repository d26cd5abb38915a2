package ai.lango.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    @Test
    void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
        assertEquals(Duration.ofSeconds(7), HttpTransport.retryAfter("7"));
        Duration untilDate = HttpTransport.retryAfter(DateTimeFormatter.RFC_1123_DATE_TIME
                .format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120)));
        assertTrue(untilDate.toSeconds() > 100 && untilDate.toSeconds() <= 120, String.valueOf(untilDate));
        assertNull(HttpTransport.retryAfter(null));
        assertNull(HttpTransport.retryAfter("soon"));
        assertNull(HttpTransport.retryAfter("-3"));
    }
}
