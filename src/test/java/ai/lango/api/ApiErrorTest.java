package ai.lango.api;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.google.adk.JsonBaseModel;
import org.junit.jupiter.api.Test;

class ApiErrorTest {

    /** A parser limit (nesting, string length) has no location: the message must not need one (it was an NPE, a 500). */
    @Test
    void aJsonErrorWithoutALocationIsDescribedNotAnNpe() {
        String message = ApiError.notJson(new StreamConstraintsException("Document nesting depth (1001) exceeds the maximum"));
        assertTrue(message.startsWith("the body is not valid JSON: Document nesting depth"), message);
        JsonProcessingException real = assertThrows(JsonProcessingException.class,
                () -> JsonBaseModel.getMapper().readTree("[".repeat(5_000)));
        assertTrue(ApiError.notJson(real).startsWith("the body is not valid JSON"), ApiError.notJson(real));
    }
}
