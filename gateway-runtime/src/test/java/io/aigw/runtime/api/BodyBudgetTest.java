package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.ApiException;
import org.junit.jupiter.api.Test;

class BodyBudgetTest {
    /** Room for {@code bodyBytes} of body, as a reservation counts it. */
    private static long room(long bodyBytes) {
        return bodyBytes * GatewayConfig.Limits.BODY_COST;
    }

    @Test
    void aKeysShareFreesBodyByBodyAsItsBodiesEnd() {
        BodyBudget budget = new BodyBudget(room(1_000), room(300));
        BodyBudget.Reservation first = budget.open("key-a");
        BodyBudget.Reservation second = budget.open("key-a");
        first.grow(200);
        second.grow(100);

        // The key's share is full: a third body of its waits, then gets a 429.
        BodyBudget.Reservation third = budget.open("key-a");
        assertEquals(429, assertThrows(ApiException.class, () -> third.grow(1)).error().status().code());

        // The first body's end gives back its 200 bytes and no more: the second still holds 100.
        first.close();
        assertDoesNotThrow(() -> third.grow(200));
        assertEquals(429, assertThrows(ApiException.class, () -> third.grow(1)).error().status().code());

        second.close();
        third.close();
        BodyBudget.Reservation whole = budget.open("key-a");
        assertDoesNotThrow(() -> whole.grow(300));
        whole.close();
    }

    @Test
    void anotherKeyHasItsOwnShareWhileOneKeysIsFull() {
        BodyBudget budget = new BodyBudget(room(1_000), room(300));
        BodyBudget.Reservation full = budget.open("key-a");
        full.grow(300);

        BodyBudget.Reservation other = budget.open("key-b");
        assertDoesNotThrow(() -> other.grow(300));
        other.close();
        full.close();
    }
}
