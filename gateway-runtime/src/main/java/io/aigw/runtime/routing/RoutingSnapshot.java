package io.aigw.runtime.routing;

import io.aigw.runtime.plugin.PluginSet;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.PriceBook;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One generation of routing: a table (with {@code gateway/auto}'s chain), the plugins it was built
 * from and their prices, never changed once made. A reload builds the next one aside and {@link CurrentRoutes}
 * swaps it in at once.
 *
 * <p>A chat request holds the snapshot it routed its model with from its start to its end
 * ({@link CurrentRoutes#acquire()}, {@link #release()}), so a request or stream in flight finishes
 * on the providers it started with. A snapshot is held too while it is the current one; once
 * replaced, it is released when its last request ends: then its providers' upstream clients close,
 * and nothing holds its plugins' class loaders any more.
 */
public final class RoutingSnapshot {
    private final long generation;
    private final RoutingTable table;
    private final PluginSet plugins;
    private final PriceBook prices;
    private final Instant pricesSince;
    private final Consumer<RoutingSnapshot> whenReleased;
    /** Requests holding it, plus one while it is current; 0 for good: released. */
    private final AtomicInteger holders = new AtomicInteger(1);

    /** @param before the snapshot this one replaces; none for the first */
    RoutingSnapshot(long generation, RoutingTable table, PluginSet plugins, Optional<RoutingSnapshot> before,
                    Consumer<RoutingSnapshot> whenReleased) {
        this.generation = generation;
        this.table = table;
        this.plugins = plugins;
        this.prices = PriceBook.of(Provider.prices(table.byPriority()));
        // A reload that leaves every price as it was does not restart the prices' time in force.
        this.pricesSince = before.filter(replaced -> replaced.prices.version().equals(prices.version()))
                .map(replaced -> replaced.pricesSince).orElseGet(Instant::now);
        this.whenReleased = whenReleased;
    }

    /** 1 for the table the gateway started with, one more at each reload applied. */
    public long generation() {
        return generation;
    }

    public RoutingTable table() {
        return table;
    }

    public PluginSet plugins() {
        return plugins;
    }

    /**
     * The prices of this table's providers (their catalogues with configuration applied): a request
     * is priced by the table it was routed with, even when a reload changed the prices meanwhile.
     */
    public PriceBook prices() {
        return prices;
    }

    /**
     * Since when {@link #prices()} have been in force: this process's start, or the reload that last
     * changed a price.
     */
    public Instant pricesSince() {
        return pricesSince;
    }

    /** Holds it for one more request, unless it was released already (then a newer one is current). */
    boolean tryAcquire() {
        for (int count = holders.get(); count > 0; count = holders.get()) {
            if (holders.compareAndSet(count, count + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Ends one hold: a request's, at its end, or the current one's, when a reload replaces it. */
    public void release() {
        if (holders.decrementAndGet() == 0) {
            whenReleased.accept(this);
        }
    }

    /** Whether every hold has ended, the current one's included. */
    public boolean isReleased() {
        return holders.get() == 0;
    }
}
