package io.aigw.tck;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** The TCK run on one test class as a plugin's build runs it, each check's outcome by its name. */
record TckRun(Map<String, TestExecutionResult> outcomes) {

    static TckRun of(Class<? extends ProviderPluginTck> tck) {
        Map<String, TestExecutionResult> outcomes = new TreeMap<>();
        for (Event event : EngineTestKit.engine("junit-jupiter").selectors(selectClass(tck)).execute()
                .testEvents().finished().list()) {
            String check = event.getTestDescriptor().getSource()
                    .map(source -> ((MethodSource) source).getMethodName()).orElseThrow();
            outcomes.put(check, event.getRequiredPayload(TestExecutionResult.class));
        }
        return new TckRun(outcomes);
    }

    /** Each check's status: SUCCESSFUL, FAILED, or ABORTED (skipped, when the descriptor cannot be read). */
    Map<String, TestExecutionResult.Status> statuses() {
        Map<String, TestExecutionResult.Status> statuses = new TreeMap<>();
        outcomes.forEach((check, result) -> statuses.put(check, result.getStatus()));
        return statuses;
    }

    /** What a plugin author reads for the check: the failure's message. */
    String message(String check) {
        return outcomes.get(check).getThrowable().orElseThrow().getMessage();
    }
}
