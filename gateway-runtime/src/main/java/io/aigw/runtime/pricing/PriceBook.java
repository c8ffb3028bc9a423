package io.aigw.runtime.pricing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The prices in use: every provider's model prices after configuration's, under one version.
 *
 * <p>The version is the first 12 hex digits of the SHA-256 of the table's {@linkplain #canonical()
 * canonical text}: the same prices give the same version on every start and every replica, and a
 * changed price gives another. A record of a cost names the version that priced it; the canonical
 * text, kept once per version, gives the table back ({@link #parse}), so an old record stays
 * explainable after prices change. Immutable and thread-safe.
 */
public final class PriceBook {
    private static final int VERSION_HEX_DIGITS = 12;

    /** In hashed maps: looked up on every request, where sorted ones would compare strings. */
    private final Map<String, Map<String, ModelPrice>> byName;
    private final String canonical;
    private final String version;

    /** @param sorted in order of provider, then model: what the canonical text is written from */
    private PriceBook(Map<String, Map<String, ModelPrice>> sorted) {
        Map<String, Map<String, ModelPrice>> hashed = new HashMap<>();
        sorted.forEach((provider, models) -> hashed.put(provider, Map.copyOf(models)));
        this.byName = Map.copyOf(hashed);
        this.canonical = PriceTableText.write(sorted);
        this.version = hash(canonical);
    }

    /**
     * A book of these prices.
     *
     * @param byProvider each provider's priced models by model id, the provider named as usage
     *                   records name it; a model without a price is left out
     */
    public static PriceBook of(Map<String, ? extends Map<String, ModelPrice>> byProvider) {
        Map<String, Map<String, ModelPrice>> sorted = new TreeMap<>();
        byProvider.forEach((provider, models) -> {
            if (!models.isEmpty()) {
                sorted.put(provider, new TreeMap<>(models));
            }
        });
        return new PriceBook(sorted);
    }

    /**
     * The book whose {@link #canonical()} text this is, as kept for its version.
     *
     * @throws IllegalArgumentException when the text is not a price table
     */
    public static PriceBook parse(String canonical) {
        return of(PriceTableText.read(canonical));
    }

    /** The version of these prices: 12 hex digits. */
    public String version() {
        return version;
    }

    /** The table as one line of JSON, the same for the same prices; what {@link #parse} reads. */
    public String canonical() {
        return canonical;
    }

    /** How many models have a price. */
    public int size() {
        return byName.values().stream().mapToInt(Map::size).sum();
    }

    /** The price of a provider's model, if it has one. */
    public Optional<ModelPrice> price(String provider, String model) {
        return Optional.ofNullable(byName.getOrDefault(provider, Map.of()).get(model));
    }

    /**
     * What a request to a provider's model cost: the cost the upstream reported when it did (it wins
     * over the table), else the reported tokens at the model's price, else unknown.
     */
    public Cost cost(String provider, String model, MeteredUsage usage) {
        if (usage.reportedCost().isPresent()) {
            return new Cost.Reported(usage.reportedCost().get());
        }
        Optional<ModelPrice> price = price(provider, model);
        if (price.isEmpty()) {
            return new Cost.Unknown(Cost.Reason.NO_PRICE);
        }
        if (usage.promptTokens() < 0 || usage.completionTokens() < 0) {
            return new Cost.Unknown(Cost.Reason.NO_USAGE);
        }
        return new Cost.Priced(price.get().cost(usage), version);
    }

    /**
     * What a request cost by token counts the gateway estimated where the upstream reported none:
     * those counts at the model's price, flagged as estimated; unknown for a model without a price.
     */
    public Cost estimate(String provider, String model, MeteredUsage estimated) {
        Optional<ModelPrice> price = price(provider, model);
        if (price.isEmpty()) {
            return new Cost.Unknown(Cost.Reason.NO_PRICE);
        }
        return new Cost.Estimated(price.get().cost(estimated), version);
    }

    @Override
    public String toString() {
        return "PriceBook " + version + " (" + size() + " models priced)";
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, VERSION_HEX_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
