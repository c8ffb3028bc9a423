package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hundred reloads of the plugins of one running bin/gateway under light traffic: no request gets
 * an error, and the JVM's classes, plugin class loaders and heap after a full collection stay where
 * they were, as {@code jstat} and {@code jcmd} report them: the replaced module layers are collected.
 */
public final class PluginReloadSoakIT {
    private static final String MASTER = "sk-gw-reload-soak-test-0123456789";
    private static final int RELOADS = 100;

    @TempDir
    Path work;

    @Test
    void aHundredReloadsUnderTrafficAnswerNoErrorAndLeaveClassesAndHeapFlat() throws Exception {
        Path home = GatewayProcess.copyDistribution(work);
        try (FakeUpstream openai = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                     "GATEWAY_PLUGINS_WATCH", "false", "GATEWAY_ACCESS_LOG", "off",
                     "OPENAI_API_KEY", "openai-upstream-key", "OPENAI_BASE_URL", openai.baseUrl()))) {
            List<Integer> statuses = new ArrayList<>(reloadUnderTraffic(gateway, 10));
            Figures warm = Figures.of(gateway);

            statuses.addAll(reloadUnderTraffic(gateway, RELOADS));
            Figures after = Figures.of(gateway);

            System.out.println("Before " + RELOADS + " reloads (after 10): " + warm);
            System.out.println("After " + RELOADS + " more reloads:        " + after);
            System.out.println("Requests during the reloads: " + statuses.size() + ", their statuses "
                    + statuses.stream().distinct().toList());
            assertTrue(statuses.size() > 50, "too little traffic to tell: " + statuses.size());
            assertEquals(List.of(200), statuses.stream().distinct().toList());
            // Each reload replaces the 5 jars' layers: a leak would keep 500 class loaders, their classes and heap.
            assertEquals(5, after.pluginLoaders(), "one module layer per jar in plugins/, the replaced ones collected");
            assertEquals(warm.pluginLoaders(), after.pluginLoaders());
            assertTrue(after.liveClasses() - warm.liveClasses() < RELOADS,
                    "classes loaded and not unloaded grew from " + warm + " to " + after);
            assertTrue(after.heapUsedKb() - warm.heapUsedKb() < 2048,
                    "the heap after a full collection grew from " + warm + " to " + after);
        }
    }

    /**
     * Reloads {@code times} times while chat requests and model lists go on, and returns their
     * statuses; the traffic ends before the figures are taken, so that both are taken at rest.
     */
    private static List<Integer> reloadUnderTraffic(GatewayProcess gateway, int times) throws Exception {
        try (Traffic traffic = Traffic.start(gateway, MASTER, "{\"model\":\"openai/gpt-5\",\"messages\":[]}")) {
            for (int i = 0; i < times; i++) {
                HttpResponse<String> reload = gateway.post("/admin/v1/plugins/reload", MASTER, "");
                assertEquals(200, reload.statusCode(), reload.body());
            }
            return traffic.stop();
        }
    }

    /**
     * After a full collection: the classes the JVM holds (loaded less unloaded, {@code jstat -class}),
     * the plugin class loaders alive ({@code jcmd VM.classloader_stats}: a module layer's loader is a
     * {@code jdk.internal.loader.Loader}), and the heap (what survived: old generation and survivor
     * spaces) and metaspace used ({@code jstat -gc}).
     */
    record Figures(long loadedClasses, long unloadedClasses, long pluginLoaders, long heapUsedKb,
                   long metaspaceUsedKb) {

        static Figures of(GatewayProcess gateway) throws Exception {
            // Twice: objects whose cleaners ran in the first collection go in the second.
            gateway.jdkTool("jcmd", "GC.run");
            gateway.jdkTool("jcmd", "GC.run");
            Map<String, Double> classes = columns(gateway.jdkTool("jstat", "-class"));
            Map<String, Double> memory = columns(gateway.jdkTool("jstat", "-gc"));
            long loaders = gateway.jdkTool("jcmd", "VM.classloader_stats").lines()
                    .filter(line -> line.strip().endsWith("jdk.internal.loader.Loader")).count();
            double heap = memory.get("S0U") + memory.get("S1U") + memory.get("OU");
            return new Figures(classes.get("Loaded").longValue(), classes.get("Unloaded").longValue(), loaders,
                    Math.round(heap), Math.round(memory.get("MU")));
        }

        /** jstat's one row of figures by the names of its header; a repeated name (Bytes) keeps its first. */
        private static Map<String, Double> columns(String printed) {
            List<String> lines = printed.strip().lines().toList();
            String[] names = lines.get(0).strip().split("\\s+");
            String[] values = lines.get(1).strip().split("\\s+");
            Map<String, Double> columns = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                if (!values[i].equals("-")) {
                    columns.putIfAbsent(names[i], Double.parseDouble(values[i]));
                }
            }
            return columns;
        }

        long liveClasses() {
            return loadedClasses - unloadedClasses;
        }

        @Override
        public String toString() {
            return "classes loaded " + loadedClasses + ", unloaded " + unloadedClasses + " (alive " + liveClasses()
                    + "), plugin class loaders " + pluginLoaders + ", heap used " + heapUsedKb + " KB, metaspace used "
                    + metaspaceUsedKb + " KB";
        }
    }
}
