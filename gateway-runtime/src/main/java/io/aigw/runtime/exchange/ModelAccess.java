package io.aigw.runtime.exchange;

import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.KeyPolicy;
import java.util.List;

/**
 * Whether a key's allowed models let it use a model id. An alias ({@code gateway.aliases}) is
 * allowed by either name: its own, or the models it stands for, every one of them (each may answer).
 */
public final class ModelAccess {

    private ModelAccess() {
    }

    /** Whether {@code policy} lets its key ask for {@code model} in {@code table}. */
    public static boolean allows(KeyPolicy policy, RoutingTable table, String model) {
        if (policy.allows(model)) {
            return true;
        }
        List<String> targets = table.aliases().models(model);
        return !targets.isEmpty() && targets.stream().allMatch(policy::allows);
    }
}
