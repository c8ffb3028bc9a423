package io.aigw.distribution.thirdparty.widget;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URL;
import java.util.Optional;

/** A third party's plugin: compiled against the SPI alone, jarred by the test, dropped into plugins/. */
public final class WidgetPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("widget")
                .defaultModel("widget-1")
                .priority(7)
                .baseUrl("https://api.widget.example/v1")
                .apiKeyVariable("WIDGET_API_KEY")
                .baseUrlVariable("WIDGET_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(WidgetPlugin.class.getResource("models.json"));
    }
}
