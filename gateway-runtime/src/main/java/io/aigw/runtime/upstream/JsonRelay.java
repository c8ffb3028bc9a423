package io.aigw.runtime.upstream;

import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.observe.TokenUsage;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;

/**
 * Relays a whole answer: the upstream's status and body as they came, its relayed headers, and the
 * gateway's own that name the provider and the time taken.
 */
final class JsonRelay {

    private JsonRelay() {
    }

    static Answered send(ServerResponse response, HttpClientResponse upstream, int status, byte[] answer,
                         Provider provider, CallReport report) {
        response.status(Status.create(status));
        response.header(HeaderNames.CONTENT_TYPE, RelayedHeaders.contentType(upstream, "application/json"));
        response.header(ChatForwarder.PROVIDER_HEADER, provider.prefix());
        response.header(ServerTiming.HEADER, ServerTiming.value(report));
        RelayedHeaders.of(upstream).forEach(response::header);
        response.send(answer);
        report.answered(status, System.nanoTime());
        // Counted after the answer is out: the caller does not wait for it.
        report.usage(ReportedUsage.inAnswer(answer, 0, answer.length).orElse(TokenUsage.NONE));
        return new Answered(status);
    }
}
