package io.aigw.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The PostgreSQL tests skip on a laptop without PostgreSQL, and fail in CI instead of skipping. */
public final class LocalPostgresTest {

    @Test
    void withoutPostgresOutsideCiTheTestIsSkippedWithTheReason() throws Exception {
        String closed = "127.0.0.1:" + closedPort();

        TestAbortedException skipped = assertThrows(TestAbortedException.class,
                () -> LocalPostgres.createDatabase(closed, Map.of()));

        assertTrue(skipped.getMessage().startsWith("PostgreSQL is not reachable at " + closed + ": "),
                skipped.getMessage());
    }

    @Test
    void withoutPostgresInCiTheTestFails() throws Exception {
        String closed = "127.0.0.1:" + closedPort();

        AssertionFailedError failed = assertThrows(AssertionFailedError.class,
                () -> LocalPostgres.createDatabase(closed, Map.of("CI", "true")));

        assertTrue(failed.getMessage().startsWith("PostgreSQL is not reachable at " + closed + ": "),
                failed.getMessage());
    }

    @Test
    void aCiVariableOtherThanTrueStillSkips() throws Exception {
        String closed = "127.0.0.1:" + closedPort();

        for (String ci : new String[] {"false", ""}) {
            assertEquals(TestAbortedException.class, assertThrows(Throwable.class,
                    () -> LocalPostgres.createDatabase(closed, Map.of("CI", ci))).getClass(), "CI=" + ci);
        }
    }

    /** A loopback port nothing listens on: taken from the system, then let go. */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
