package io.aigw.runtime.routing;

import java.util.Set;

/** Hears of plugin reloads, for the metrics that count them. */
public interface ReloadListener {

    /** The model ids callers may use once the table being swapped in is in force; told before it is. */
    void knownModels(Set<String> ids);

    /** A reload ended, {@code applied} or {@code refused}. */
    void pluginReload(String result);
}
