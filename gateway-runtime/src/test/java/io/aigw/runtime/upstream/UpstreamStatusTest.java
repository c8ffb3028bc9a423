package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What each upstream status means for the caller and for {@code gateway/auto}, as docs/routing-and-errors.md says. */
public final class UpstreamStatusTest {

    @ParameterizedTest(name = "{0} is {1}, and gateway/auto moves on: {2}")
    @CsvSource({
            "200, SUCCESS, false",
            "201, SUCCESS, false",
            "299, SUCCESS, false",
            "301, FINAL, false",
            "400, FINAL, false",
            "401, KEY_REJECTED, true",
            "403, KEY_REJECTED, true",
            "404, FINAL, false",
            "408, RETRYABLE, true",
            "409, RETRYABLE, true",
            "413, FINAL, false",
            "422, FINAL, false",
            "429, RETRYABLE, true",
            "500, RETRYABLE, true",
            "502, RETRYABLE, true",
            "503, RETRYABLE, true",
            "504, RETRYABLE, true",
            "529, RETRYABLE, true"})
    void eachStatusIsClassified(int code, UpstreamStatus expected, boolean movesOn) {
        assertEquals(expected, UpstreamStatus.of(code));
        assertEquals(movesOn, UpstreamStatus.of(code).movesOn());
    }
}
