package io.aigw.runtime.pricing;

import java.util.Optional;

/** What one request cost, and how that is known. */
public sealed interface Cost {

    /** The amount; empty when it is not known. */
    Optional<Usd> amount();

    /** The upstream reported the cost in its answer; it wins over any price table. */
    record Reported(Usd usd) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.of(usd);
        }
    }

    /**
     * Computed from the reported token counts at the model's price in a price table.
     *
     * @param priceVersion the {@link PriceBook#version()} of the table, which stays retrievable
     */
    record Priced(Usd usd, String priceVersion) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.of(usd);
        }
    }

    /** Not known: never taken for zero. */
    record Unknown(Reason reason) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.empty();
        }
    }

    /** Why a cost is unknown. */
    enum Reason {
        /** The model has no price and the upstream reported no cost. */
        NO_PRICE,
        /** The upstream reported neither the prompt and completion counts nor a cost. */
        NO_USAGE
    }
}
