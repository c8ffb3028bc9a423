package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** What the gateway relies on in a plugin's descriptor. */
final class DescriptorRules {
    /** Starts every model id and names the provider's settings, {@code providers.<prefix>.*}. */
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final Pattern VARIABLE = Pattern.compile("[A-Z][A-Z0-9_]*");
    /** {@code gateway/auto}'s prefix, which no provider may claim. */
    private static final String GATEWAY_PREFIX = "gateway";

    private DescriptorRules() {
    }

    /** A descriptor from every instance and every call, equal each time, with well-formed values. */
    static List<String> descriptor(PluginUnderTest plugin) {
        List<String> problems = new ArrayList<>();
        switch (plugin.declaration()) {
            case Declaration.Undeclared undeclared -> problems.add(undeclared.reason()
                    + "; the gateway reports this and skips the plugin");
            case Declaration.Declared declared -> {
                stability(plugin, declared.descriptor(), problems);
                values(declared.descriptor(), problems);
            }
        }
        return problems;
    }

    static List<String> prefix(ProviderDescriptor descriptor) {
        String prefix = descriptor.prefix();
        List<String> problems = new ArrayList<>();
        if (prefix.equals(GATEWAY_PREFIX)) {
            problems.add("the prefix 'gateway' is the gateway's own (gateway/auto): no plugin may claim it");
        } else if (!PREFIX.matcher(prefix).matches()) {
            problems.add("the prefix '" + prefix + "' must be lower-case letters, digits, '-' and '_', starting with"
                    + " a letter or digit: it starts every model id callers write and names the plugin's settings,"
                    + " providers." + prefix + ".*");
        }
        return problems;
    }

    private static void stability(PluginUnderTest plugin, ProviderDescriptor first, List<String> problems) {
        sameAs(first, Declaration.of(plugin.instance()), "a second call of descriptor()", problems);
        sameAs(first, Declaration.of(plugin.another()), "descriptor() on a new instance", problems);
    }

    private static void sameAs(ProviderDescriptor first, Declaration again, String what, List<String> problems) {
        switch (again) {
            case Declaration.Undeclared undeclared -> problems.add(what + " fails where the first call did not: "
                    + undeclared.reason());
            case Declaration.Declared declared -> {
                if (!declared.descriptor().equals(first)) {
                    problems.add(what + " gives " + declared.descriptor() + ", not " + first
                            + ": a plugin declares constants, since the gateway reads the descriptor once at start");
                }
            }
        }
    }

    private static void values(ProviderDescriptor descriptor, List<String> problems) {
        variable("apiKeyVariable", descriptor.apiKeyVariable(), problems);
        variable("baseUrlVariable", descriptor.baseUrlVariable(), problems);
        if (descriptor.apiKeyVariable().equals(descriptor.baseUrlVariable())) {
            problems.add("apiKeyVariable and baseUrlVariable are both " + descriptor.apiKeyVariable()
                    + ": the key and the base URL need a variable each");
        }
        URI baseUrl = descriptor.baseUrl();
        if (baseUrl.getHost() == null) {
            problems.add("baseUrl " + baseUrl + " names no host");
        }
        if (baseUrl.getRawUserInfo() != null) {
            problems.add("baseUrl carries user information: a key belongs in the variable " + descriptor.apiKeyVariable()
                    + ", never in the URL");
        }
        if (baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null) {
            problems.add("baseUrl " + baseUrl + " has a query or fragment: the gateway appends /chat/completions to it");
        }
        ModelIds.problem(descriptor.defaultModel(), descriptor)
                .ifPresent(problem -> problems.add("defaultModel " + problem + " (gateway/auto sends it as it is)"));
    }

    private static void variable(String name, String value, List<String> problems) {
        if (!VARIABLE.matcher(value).matches()) {
            problems.add(name + " '" + value + "' is not an environment variable name: upper-case letters, digits and"
                    + " '_', starting with a letter (the vendor SDK's own name, such as OPENAI_API_KEY)");
        }
    }
}
