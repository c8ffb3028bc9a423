package io.aigw.runtime.pricing;

import java.util.Locale;
import java.util.Optional;

/** What one request cost, and how that is known. */
public sealed interface Cost {

    /** The amount; empty when it is not known. */
    Optional<Usd> amount();

    /** How the amount is known, as a usage record keeps it. */
    Basis basis();

    /** The {@link PriceBook#version()} of the table that priced it; empty when no table did. */
    default Optional<String> priceVersion() {
        return Optional.empty();
    }

    /** How a cost is known. Each has a stable code, what a usage record stores. */
    enum Basis {
        /** Not known: no price, or no counts to price. */
        UNKNOWN(0),
        /** The upstream said what it cost. */
        REPORTED(1),
        /** Counts the upstream reported, at a table's prices. */
        PRICED(2),
        /** Counts the gateway estimated, where the upstream reported none, at a table's prices. */
        ESTIMATED(3),
        /**
         * Zero, since no upstream billed the request: none was tried (the gateway refused or could not
         * route it), or the one tried answered with an error and reported no usage.
         */
        NONE(4);

        private final int code;
        private final String label;

        Basis(int code) {
            this.code = code;
            this.label = name().toLowerCase(Locale.ROOT);
        }

        /** Its name as reports and logs write it: {@code priced}. */
        public String label() {
            return label;
        }

        /** The number a usage record stores. */
        public int code() {
            return code;
        }

        /** The basis a stored number stands for. */
        public static Basis ofCode(int code) {
            for (Basis basis : values()) {
                if (basis.code == code) {
                    return basis;
                }
            }
            throw new IllegalArgumentException("no cost basis has the code " + code);
        }
    }

    /** The upstream reported the cost in its answer; it wins over any price table. */
    record Reported(Usd usd) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.of(usd);
        }

        @Override
        public Basis basis() {
            return Basis.REPORTED;
        }
    }

    /**
     * Computed from the reported token counts at the model's price in a price table.
     *
     * @param version the {@link PriceBook#version()} of the table, which stays retrievable
     */
    record Priced(Usd usd, String version) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.of(usd);
        }

        @Override
        public Basis basis() {
            return Basis.PRICED;
        }

        @Override
        public Optional<String> priceVersion() {
            return Optional.of(version);
        }
    }

    /**
     * Computed at the model's price in a price table from token counts the gateway estimated, where
     * the upstream reported none (a stream cut short, or one that sent no usage).
     *
     * @param version the {@link PriceBook#version()} of the table
     */
    record Estimated(Usd usd, String version) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.of(usd);
        }

        @Override
        public Basis basis() {
            return Basis.ESTIMATED;
        }

        @Override
        public Optional<String> priceVersion() {
            return Optional.of(version);
        }
    }

    /** No upstream billed the request ({@link Basis#NONE}): it cost nothing, and no price table says so. */
    record NotBilled() implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.of(Usd.ZERO);
        }

        @Override
        public Basis basis() {
            return Basis.NONE;
        }
    }

    /** Not known: never taken for zero. */
    record Unknown(Reason reason) implements Cost {
        @Override
        public Optional<Usd> amount() {
            return Optional.empty();
        }

        @Override
        public Basis basis() {
            return Basis.UNKNOWN;
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
