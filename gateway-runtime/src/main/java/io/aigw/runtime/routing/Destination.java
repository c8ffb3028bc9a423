package io.aigw.runtime.routing;

/**
 * Where a chat request goes: along one {@link Route}, or along {@code gateway/auto}'s
 * {@link AutoChain} or an alias's {@link Fallbacks}, each route tried until one answers.
 */
public sealed interface Destination permits Route, AutoChain, Fallbacks {
}
