/**
 * The plugin TCK: extend {@link io.aigw.tck.ProviderPluginTck} in a plugin's own tests to check
 * what the gateway relies on, from the descriptor to a request through a real gateway.
 */
package io.aigw.tck;
