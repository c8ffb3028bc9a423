package io.aigw.runtime.routing;

import io.aigw.runtime.config.Aliases;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.plugin.Provider;
import io.aigw.spi.UpstreamApi;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps a model id's prefix, the text before its first {@code /}, to the provider that serves it.
 * Ids whose prefix no provider claims, and ids without a {@code /}, go to the catch-all unchanged,
 * but where a provider is the home of the API asked ({@link Provider#homeFor()}) for ids without one.
 */
public final class RoutingTable {
    /** The prefix the gateway keeps for itself: {@code gateway/auto}. */
    public static final String GATEWAY_PREFIX = "gateway";
    public static final String AUTO_MODEL = GATEWAY_PREFIX + "/auto";

    private final Map<String, Provider> byPrefix;
    private final Optional<Provider> catchAll;
    /** For each API, the provider that ids without a {@code /} go to on it instead of the catch-all. */
    private final Map<UpstreamApi, Provider> homes;
    private final AutoChain auto;
    /** Each alias's destination: one route, or its fallbacks. */
    private final Map<String, Destination> aliases;
    private final Aliases aliasTargets;

    private RoutingTable(Map<String, Provider> byPrefix, Optional<Provider> catchAll, Map<UpstreamApi, Provider> homes,
                         AutoChain auto, Aliases aliasTargets) {
        this.byPrefix = byPrefix;
        this.catchAll = catchAll;
        this.homes = homes;
        this.auto = auto;
        this.aliasTargets = aliasTargets;
        Map<String, Destination> destinations = new HashMap<>();
        aliasTargets.targets().forEach((alias, targets) -> destinations.put(alias, aliasOf(alias, targets)));
        this.aliases = Map.copyOf(destinations);
    }

    /** Builds the table, without aliases. */
    public static RoutingTable of(List<Provider> providers) {
        return of(providers, Aliases.NONE);
    }

    /**
     * Builds the table.
     *
     * @throws ConfigurationException when two providers claim one prefix, more than one is the
     *                                catch-all, or one claims the gateway's own prefix, or an alias
     *                                names the gateway's prefix or a model no provider serves; the
     *                                message names every party
     */
    public static RoutingTable of(List<Provider> providers, Aliases aliases) {
        Map<String, Provider> byPrefix = new HashMap<>();
        Map<UpstreamApi, Provider> homes = new EnumMap<>(UpstreamApi.class);
        Provider catchAll = null;
        for (Provider provider : providers) {
            if (provider.prefix().equals(GATEWAY_PREFIX)) {
                throw new ConfigurationException("The prefix '" + GATEWAY_PREFIX + "' is the gateway's own, but "
                        + provider.source() + " claims it. Rename it with providers." + provider.name() + ".prefix.");
            }
            Provider previous = byPrefix.putIfAbsent(provider.prefix(), provider);
            if (previous != null) {
                throw new ConfigurationException(duplicatePrefix(previous, provider));
            }
            if (provider.catchAll()) {
                if (catchAll != null) {
                    throw new ConfigurationException("Two plugins claim to be the catch-all provider: "
                            + catchAll.source() + " and " + provider.source() + ". Remove one jar from plugins/ or"
                            + " switch one off with providers." + provider.name() + ".enabled=false.");
                }
                catchAll = provider;
            }
            for (UpstreamApi api : provider.homeFor()) {
                Provider home = homes.putIfAbsent(api, provider);
                if (home != null) {
                    throw new ConfigurationException("Two plugins claim to be the home of " + api + " model ids"
                            + " without a provider: " + home.source() + " and " + provider.source() + ". Remove one"
                            + " jar from plugins/ or switch one off with providers." + provider.name()
                            + ".enabled=false.");
                }
            }
        }
        List<Provider> byPriority = providers.stream()
                .sorted(Comparator.comparingInt(Provider::priority).thenComparing(Provider::prefix))
                .toList();
        return new RoutingTable(Map.copyOf(byPrefix), Optional.ofNullable(catchAll), homes, new AutoChain(byPriority),
                aliases);
    }

    /** An alias's destination: its one model's route, or the routes of its models in order. */
    private Destination aliasOf(String alias, List<Aliases.Target> targets) {
        if (alias.equals(AUTO_MODEL) || alias.startsWith(GATEWAY_PREFIX + "/")) {
            throw new ConfigurationException("The alias '" + alias + "' of gateway.aliases takes the gateway's own"
                    + " prefix '" + GATEWAY_PREFIX + "/': choose another name.");
        }
        List<Route> routes = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        for (Aliases.Target model : targets) {
            String target = model.model();
            weights.add(model.weight());
            if (aliasTargets.targets().containsKey(target) || target.startsWith(GATEWAY_PREFIX + "/")) {
                throw new ConfigurationException("The alias '" + alias + "' of gateway.aliases names '" + target
                        + "', which is an alias or the gateway's own: an alias names providers' models.");
            }
            try {
                routes.add(route(target));
            } catch (ApiException e) {
                throw new ConfigurationException("The alias '" + alias + "' of gateway.aliases names '" + target
                        + "', which no installed provider serves: " + e.error().message());
            }
        }
        return routes.size() == 1 ? routes.getFirst() : new Fallbacks(alias, routes, weights);
    }

    /**
     * Explains a prefix claimed twice. Configuration addresses a provider by the prefix its plugin
     * declared, so two plugins declaring the same one share {@code providers.<name>.*}: renaming
     * would rename both, and only removing a jar helps. When configuration made the clash (one was
     * renamed onto the other's prefix), renaming either one resolves it, and the message says how.
     */
    private static String duplicatePrefix(Provider previous, Provider provider) {
        String claims = "Two plugins claim the model prefix '" + provider.prefix() + "': " + previous.source()
                + describeRename(previous) + " and " + provider.source() + describeRename(provider) + ".";
        if (previous.name().equals(provider.name())) {
            return claims + " Both declare it, so providers." + provider.name() + ".* would configure both alike;"
                    + " remove one jar from plugins/.";
        }
        return claims + " Rename one with providers." + previous.name() + ".prefix or providers." + provider.name()
                + ".prefix.";
    }

    private static String describeRename(Provider provider) {
        return provider.prefix().equals(provider.name()) ? ""
                : " (renamed from '" + provider.name() + "' by providers." + provider.name() + ".prefix)";
    }

    /**
     * Where a request on {@code api} for {@code model} goes: {@link #AUTO_MODEL} to the
     * {@code gateway/auto} chain, an alias to its model or models, an id without a {@code /} to the
     * API's home if a provider is ({@link Provider#homeFor()}), any other id along its {@link #route}. Whether the provider
     * serves the API is the caller's to check: the refusal names the endpoint it was asked on.
     *
     * @throws ApiException as {@link #route} does
     */
    public Destination destination(String model, UpstreamApi api) {
        if (AUTO_MODEL.equals(model)) {
            return auto;
        }
        Destination alias = aliases.get(model);
        if (alias != null) {
            return alias;
        }
        Provider home = homes.get(api);
        return home != null && model.indexOf('/') < 0 ? new Route(home, model) : route(model);
    }

    /**
     * Routes a model id other than {@link #AUTO_MODEL}.
     *
     * @throws ApiException 404 {@code model_not_found} when nothing serves the id; 400 when a direct
     *                      provider's prefix is followed by no model
     */
    public Route route(String model) {
        int slash = model.indexOf('/');
        if (slash > 0) {
            String prefix = model.substring(0, slash);
            if (prefix.equals(GATEWAY_PREFIX)) {
                // The gateway's own prefix never reaches a provider: only gateway/auto exists.
                throw new ApiException(ApiError.modelNotFound(model));
            }
            Provider provider = byPrefix.get(prefix);
            if (provider != null) {
                return routeTo(provider, model, slash);
            }
        }
        return catchAll.map(provider -> new Route(provider, model))
                .orElseThrow(() -> new ApiException(ApiError.modelNotFound(model)));
    }

    private static Route routeTo(Provider provider, String model, int slash) {
        if (!provider.stripsPrefix()) {
            return new Route(provider, model);
        }
        String upstreamModel = model.substring(slash + 1);
        if (upstreamModel.isBlank()) {
            throw new ApiException(ApiError.invalidRequest("model", "The model '" + model + "' names a provider"
                    + " but no model; write it as " + provider.prefix() + "/<model>."));
        }
        return new Route(provider, upstreamModel);
    }

    /** Every provider, lowest priority number first: the order of {@code gateway/auto} and of the catalogue. */
    public List<Provider> byPriority() {
        return auto.byPriority();
    }

    public Optional<Provider> catchAll() {
        return catchAll;
    }

    /** The aliases ({@code gateway.aliases}), each with the models it stands for, in order. */
    public Aliases aliases() {
        return aliasTargets;
    }

    /**
     * Every model id a caller may use to reach a listed model: {@link #AUTO_MODEL}, the aliases and
     * each catalogue's, prefixed.
     */
    public Set<String> publicModelIds() {
        Set<String> ids = new HashSet<>(aliasTargets.targets().keySet());
        ids.add(AUTO_MODEL);
        for (Provider provider : byPriority()) {
            provider.catalogue().forEach(model -> ids.add(provider.publicId(model.id())));
        }
        return Set.copyOf(ids);
    }
}
