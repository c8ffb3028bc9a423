package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeaderSyntaxTest {

    @ParameterizedTest(name = "\"{0}\" is a header name")
    @ValueSource(strings = {"Retry-After", "x-ratelimit-remaining-requests", "X_Custom.1~!#$%&'*+^`|"})
    void tokensAreNames(String name) {
        assertTrue(HeaderSyntax.isName(name));
    }

    @ParameterizedTest(name = "\"{0}\" is not a header name")
    @ValueSource(strings = {"", "x-ratelimit reset", "x-ratelimit:reset", "x-ratelimit-\u00e9", "x\u0000y", "x\ty",
            "x-ratelimit-(reset)", "x\u007fy"})
    void anythingElseIsNot(String name) {
        assertFalse(HeaderSyntax.isName(name));
    }

    @ParameterizedTest(name = "\"{0}\" is a header value")
    @ValueSource(strings = {"", "3", "application/json; charset=utf-8", "a\tb", "Mon, 01 Jan 2024 00:00:00 GMT",
            "caf\u00e9"})
    void visibleTextSpacesTabsAndObsoleteTextAreValues(String value) {
        assertTrue(HeaderSyntax.isValue(value));
    }

    @ParameterizedTest(name = "a value with U+{0} is not a header value")
    @ValueSource(ints = {0x00, 0x01, 0x0a, 0x0d, 0x1b, 0x7f, 0x100, 0x2028})
    void controlsLineBreaksAndWideCharactersAreNotValues(int codePoint) {
        assertFalse(HeaderSyntax.isValue("3" + Character.toString(codePoint) + "0"));
    }
}
