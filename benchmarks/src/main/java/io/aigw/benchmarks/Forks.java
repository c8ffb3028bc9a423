package io.aigw.benchmarks;

/** JVM options every benchmark fork gets, so that the class path costs what the distribution's module path does. */
public final class Forks {
    /**
     * Names the JSON-P provider. The runtime calls {@code jakarta.json.Json.create*}, which looks the
     * provider up on every call: on the module path that is a lookup in the module graph (about 2 us
     * here), but on the class path {@code ServiceLoader} scans the jar (about 25 us in this 30 MB
     * uber jar), which would swamp the parse being measured. With the provider named, a call costs
     * what it costs in {@code bin/gateway}: a new provider instance, without the scan.
     */
    public static final String JSON_PROVIDER = "-Djakarta.json.provider=org.eclipse.parsson.JsonProviderImpl";

    private Forks() {
    }
}
