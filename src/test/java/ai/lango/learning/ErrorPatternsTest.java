package ai.lango.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Error texts as patterns that recur, and their categories. */
class ErrorPatternsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            open /home/ann/work/notes.txt: permission denied                 | open <path>: permission denied
            session 3f2b8c1e-9a4d-4c7e-8b1f-0a2b3c4d5e6f not found           | session not found
            2026-11-23T18:40:01 request failed                               | request failed
            at 2026-11-23 18:40:01.123Z the call failed                      | at the call failed
            dial tcp 127.0.0.1:5432: connection refused                      | dial tcp 127.0.0.1:<port>: connection refused
            exit status 1   after    3 tries                                 | exit status 1 after 3 tries
            """)
    void patternsLeaveOutWhatVariesBetweenOccurrences(String error, String pattern) {
        assertEquals(pattern, ErrorPatterns.pattern(error));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            tool "exec" timed out after 60s           | exec    | timeout
            context deadline exceeded                 | fs_read | timeout
            open x: permission denied                 | fs_read | permission
            403 Forbidden                             |         | permission
            openai API answered 429: rate limit       |         | provider_error
            the model refused the request             | exec    | provider_error
            the capital of France is not a command    | exec    | tool_error
            no such file or directory                 | fs_read | tool_error
            something went wrong                      |         | general
            """)
    void errorsAreCategorised(String error, String tool, String category) {
        assertEquals(category, ErrorPatterns.category(error, tool));
    }
}
