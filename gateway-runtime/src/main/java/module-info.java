/** The gateway server. Provider plugins reach it through {@link io.aigw.spi.ProviderPlugin}. */
module io.aigw.runtime {
    requires io.aigw.spi;
    requires io.helidon.webserver;
    requires io.helidon.webserver.http2;
    requires io.helidon.webclient.api;
    requires io.helidon.webclient.http1;
    requires io.helidon.config;
    requires io.helidon.config.yaml;
    requires io.helidon.logging.common;
    requires io.helidon.logging.jul;
    requires io.helidon.health;
    requires io.helidon.metrics.api;
    requires io.helidon.service.registry; // the metrics factory: see GatewayMetrics.globalRegistry
    requires micrometer.core; // gateway_cost_usd_total counts fractions of a dollar: see GatewayMetrics.cost
    requires io.helidon.webserver.observe;
    requires io.helidon.webserver.observe.health;
    requires io.helidon.webserver.observe.metrics;
    requires jakarta.json;
    requires org.eclipse.parsson;
    requires jakarta.json.bind;
    requires org.eclipse.yasson;
    requires java.logging;
    requires java.net.http; // bin/gateway plugins: the CLI asks the running gateway
    requires java.sql;
    requires jdk.unsupported; // sun.misc.Signal: see GracefulStop
    requires jdk.management; // whether objects have compact headers: see GatewayConfig.Limits
    requires com.zaxxer.hikari;
    requires redis.clients.jedis; // an automatic module, by its manifest's name
    requires org.apache.commons.pool2;
    requires io.opentelemetry.api; // tracing: see io.aigw.runtime.trace
    requires io.opentelemetry.context;
    requires io.opentelemetry.sdk.common;
    requires io.opentelemetry.sdk.trace;
    requires io.opentelemetry.sdk.metrics;
    requires io.opentelemetry.exporter.otlp;
    requires flyway.core; // an automatic module named after its jar: flyway-core declares no name

    uses io.aigw.spi.ProviderPlugin;

    exports io.aigw.runtime;

    // The records of the documents JSON-B reads and writes, for Yasson to reach by reflection.
    opens io.aigw.runtime.admin to org.eclipse.yasson;
    opens io.aigw.runtime.api to org.eclipse.yasson;
    opens io.aigw.runtime.console to org.eclipse.yasson;
    opens io.aigw.runtime.plugin to org.eclipse.yasson;
}
