package io.aigw.runtime.routing;

import java.util.ArrayList;
import java.util.List;

/** How a reload of the plugins ended. */
public sealed interface ReloadOutcome {

    /**
     * The new table is in force; requests routed before finish on the old one.
     *
     * @param added   the prefixes of providers new in it
     * @param removed the prefixes of providers it no longer has
     * @param changed the prefixes of providers whose declaration, configuration or jar version changed
     */
    record Applied(RoutingSnapshot snapshot, List<String> added, List<String> removed, List<String> changed)
            implements ReloadOutcome {

        /** What changed, in words: {@code added widget; removed xai}, or {@code no provider changed}. */
        public String changes() {
            return describe(added, removed, changed);
        }
    }

    /**
     * The plugins as they are now cannot be loaded; the table in force stays.
     *
     * @param reason what was refused and why, naming the jar
     * @param kept   the snapshot still in force
     */
    record Refused(String reason, RoutingSnapshot kept) implements ReloadOutcome {
    }

    /** Prefixes added, removed and changed, in words, as the log and {@code bin/gateway plugins reload} say them. */
    public static String describe(List<String> added, List<String> removed, List<String> changed) {
        List<String> parts = new ArrayList<>();
        if (!added.isEmpty()) {
            parts.add("added " + String.join(", ", added));
        }
        if (!removed.isEmpty()) {
            parts.add("removed " + String.join(", ", removed));
        }
        if (!changed.isEmpty()) {
            parts.add("changed " + String.join(", ", changed));
        }
        return parts.isEmpty() ? "no provider changed" : String.join("; ", parts);
    }
}
