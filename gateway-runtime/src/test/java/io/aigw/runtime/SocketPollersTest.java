package io.aigw.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

final class SocketPollersTest {

    @Test
    void oneProcessorWaitsOnPollerThreads() {
        assertEquals(Optional.of("1"), SocketPollers.modeFor(1, 25, Optional.empty()));
        assertEquals(Optional.of("1"), SocketPollers.modeFor(1, 21, Optional.empty()));
    }

    @Test
    void twoOrMoreProcessorsKeepTheJdksDefault() {
        assertEquals(Optional.empty(), SocketPollers.modeFor(2, 25, Optional.empty()));
        assertEquals(Optional.empty(), SocketPollers.modeFor(16, 25, Optional.empty()));
    }

    @Test
    void aJdkAfterTheMeasuredOnesKeepsItsDefault() {
        assertEquals(Optional.empty(), SocketPollers.modeFor(1, 26, Optional.empty()));
    }

    @Test
    void anOperatorsOwnSettingIsLeftAlone() {
        assertEquals(Optional.empty(), SocketPollers.modeFor(1, 25, Optional.of("2")));
    }
}
