package io.aigw.tck;

import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the gateway relies on in the APIs a plugin declares (SPI 1.2): {@code apis()} serves chat
 * completions and gives each API a path the gateway can append to the base URL; {@code homeFor()}
 * names only APIs of {@code apis()}; neither holds a null, and both are constants.
 */
final class ApiRules {
    private static final String PATH_SYMBOLS = "-._~/";

    private ApiRules() {
    }

    static List<String> apis(PluginUnderTest plugin) {
        List<String> problems = new ArrayList<>();
        Map<UpstreamApi, String> apis = HookRules.stable(plugin, ProviderPlugin::apis, "apis()", problems);
        if (apis == null) {
            return problems;
        }
        apis.forEach((api, path) -> {
            if (api == null || path == null) {
                problems.add("apis() holds a null API or path (" + api + ": " + path + ")");
            } else if (!isPath(path)) {
                problems.add("apis() gives " + api + " the path '" + path + "', which the gateway cannot append to"
                        + " the base URL: a path starts with '/' and holds letters, digits and " + PATH_SYMBOLS
                        + " only (usually the API's defaultPath(), '" + api.defaultPath() + "')");
            }
        });
        if (!apis.containsKey(UpstreamApi.CHAT_COMPLETIONS)) {
            problems.add("apis() leaves out CHAT_COMPLETIONS, which every provider serves; the gateway refuses the"
                    + " plugin");
        }
        return problems;
    }

    static List<String> homeFor(PluginUnderTest plugin) {
        List<String> problems = new ArrayList<>();
        Set<UpstreamApi> homes = HookRules.stable(plugin, ProviderPlugin::homeFor, "homeFor()", problems);
        Map<UpstreamApi, String> apis = HookRules.stable(plugin, ProviderPlugin::apis, "apis()", new ArrayList<>());
        if (homes == null) {
            return problems;
        }
        for (UpstreamApi api : homes) {
            if (api == null) {
                problems.add("homeFor() holds a null");
            } else if (apis != null && !apis.containsKey(api)) {
                problems.add("homeFor() names " + api + ", which apis() does not serve; the gateway refuses the"
                        + " plugin");
            }
        }
        return problems;
    }

    private static boolean isPath(String path) {
        return path.length() > 1 && path.charAt(0) == '/' && path.chars().allMatch(c -> (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || PATH_SYMBOLS.indexOf(c) >= 0);
    }
}
