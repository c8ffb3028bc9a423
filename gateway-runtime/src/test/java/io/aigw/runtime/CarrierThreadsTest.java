package io.aigw.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

final class CarrierThreadsTest {

    @Test
    void oneProcessorGetsTwoCarriers() {
        assertEquals(Optional.of("2"), CarrierThreads.parallelismFor(1, Optional.empty()));
    }

    @Test
    void twoOrMoreProcessorsKeepTheJdksOneCarrierEach() {
        assertEquals(Optional.empty(), CarrierThreads.parallelismFor(2, Optional.empty()));
        assertEquals(Optional.empty(), CarrierThreads.parallelismFor(16, Optional.empty()));
    }

    @Test
    void anOperatorsOwnSettingIsLeftAlone() {
        assertEquals(Optional.empty(), CarrierThreads.parallelismFor(1, Optional.of("1")));
    }
}
