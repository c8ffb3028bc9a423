package io.aigw.runtime.testing;

import java.io.IOException;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/** A fake upstream that gives every request the same JSON answer, for tests about what comes before the upstream. */
public final class CannedUpstream {
    private CannedUpstream() {
    }

    /** A started MockWebServer answering every request {@code status} with the JSON {@code body}. */
    public static MockWebServer start(int status, String body) throws IOException {
        MockWebServer upstream = new MockWebServer();
        upstream.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return new MockResponse.Builder().code(status).setHeader("Content-Type", "application/json")
                        .body(body).build();
            }
        });
        upstream.start();
        return upstream;
    }
}
