package io.aigw.tck;

import io.aigw.spi.ProviderPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Not for plugin authors: the TCK runs this in a JVM of its own, with nothing but the SPI and the
 * plugin on its class path or module path, and reads what {@link ServiceLoader} found there from
 * its output, one tab-separated line per finding.
 */
public final class ServiceProbe {
    static final String TAG = "aigw-tck";
    static final String PROVIDER = "provider";
    static final String ERROR = "error";
    static final String CATALOGUE = "catalogue";

    private ServiceProbe() {
    }

    /**
     * Lists every {@link ProviderPlugin} that {@link ServiceLoader} finds, with the module it is in
     * and whether its catalogue resource can be read from there.
     *
     * @param arguments none
     */
    public static void main(String[] arguments) {
        Iterator<ProviderPlugin> plugins = ServiceLoader.load(ProviderPlugin.class).iterator();
        while (true) {
            try {
                if (!plugins.hasNext()) {
                    return;
                }
                report(plugins.next());
            } catch (ServiceConfigurationError e) {
                print(ERROR, String.valueOf(e));
            }
        }
    }

    private static void report(ProviderPlugin plugin) {
        Module module = plugin.getClass().getModule();
        print(PROVIDER, plugin.getClass().getName(), module.isNamed() ? module.getName() : "");
        Optional<URL> catalogue;
        try {
            catalogue = plugin.catalogue();
        } catch (RuntimeException | LinkageError e) {
            print(CATALOGUE, plugin.getClass().getName(), "catalogue() throws " + e);
            return;
        }
        if (catalogue == null || catalogue.isEmpty()) {
            print(CATALOGUE, plugin.getClass().getName(), "none");
            return;
        }
        try (InputStream in = catalogue.get().openStream()) {
            print(CATALOGUE, plugin.getClass().getName(), in.readAllBytes().length + " bytes");
        } catch (IOException e) {
            print(CATALOGUE, plugin.getClass().getName(), catalogue.get() + " cannot be read: " + e);
        }
    }

    private static void print(String kind, String... values) {
        StringBuilder line = new StringBuilder(TAG).append('\t').append(kind);
        for (String value : values) {
            line.append('\t').append(value.replaceAll("[\\t\\r\\n]+", " "));
        }
        System.out.println(line);
    }
}
