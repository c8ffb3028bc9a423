package io.aigw.runtime.plugin;

import java.time.LocalDate;
import java.util.Optional;

/**
 * Where a provider's prices come from, for an operator asking which prices the gateway charges with.
 *
 * @param asOf       the day the plugin's catalogue says its prices were taken ({@code prices_as_of})
 * @param source     the price page the catalogue names ({@code prices_source})
 * @param configured how many models configuration prices ({@code providers.<name>.models}), over the
 *                   catalogue's price or where it has none
 */
public record PriceOrigin(Optional<LocalDate> asOf, Optional<String> source, int configured) {

    /** The origin of a provider whose catalogue says nothing of its prices and whose prices configuration leaves. */
    public static final PriceOrigin UNSTATED = new PriceOrigin(Optional.empty(), Optional.empty(), 0);
}
