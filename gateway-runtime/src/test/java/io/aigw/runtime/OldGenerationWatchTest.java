package io.aigw.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

final class OldGenerationWatchTest {
    private static final long MB = 1024 * 1024;

    @Test
    void collectsAtHalfAsMuchAgainAsWasLive() {
        assertEquals(30 * MB, OldGenerationWatch.threshold(20 * MB, 360 * MB));
    }

    @Test
    void aSmallOldGenerationGrowsToTheFloorFirst() {
        assertEquals(OldGenerationWatch.FLOOR, OldGenerationWatch.threshold(2 * MB, 360 * MB));
    }

    @Test
    void leavesTheLastEighthToTheCollectorItself() {
        assertEquals(315 * MB, OldGenerationWatch.threshold(300 * MB, 360 * MB));
    }

    @Test
    void anUnboundedPoolHasNoCeiling() {
        assertEquals(600 * MB, OldGenerationWatch.threshold(400 * MB, -1));
    }
}
