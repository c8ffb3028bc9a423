package io.aigw.runtime.api;

import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.transport.HeaderSyntax;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /anthropic/v1/messages} and {@code POST /anthropic/v1/messages/count_tokens}:
 * Anthropic's Messages API, for Claude Code and the Anthropic SDKs. Reads and validates the body
 * and hands it to the {@link Dispatcher}, as chat completions are; the caller's {@code anthropic-*}
 * headers ({@code anthropic-version}, {@code anthropic-beta}) go upstream with it.
 */
public final class MessagesService implements HttpService {
    private static final String ANTHROPIC_HEADERS = "anthropic-";
    private static final HeaderName VERSION = HeaderNames.create("anthropic-version");
    /** The API refuses a request without a version; the SDKs send one, a hand-made request may not. */
    private static final Header DEFAULT_VERSION = HeaderValues.createCached(VERSION, "2023-06-01");

    private final Dispatcher dispatcher;
    private final RequestAdmission admission;

    /** @param admission the slots and body memory this endpoint shares with the others */
    public MessagesService(Dispatcher dispatcher, RequestAdmission admission) {
        this.dispatcher = dispatcher;
        this.admission = admission;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", (request, response) -> admission.withBody(Endpoint.MESSAGES, request, response, this::create))
                .post("/count_tokens", (request, response) ->
                        admission.withBody(Endpoint.COUNT_TOKENS, request, response, this::count));
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        MessagesRequest messages = MessagesRequest.parse(body).withHeaders(anthropicHeaders(request));
        RequestSession.register(request, messages.session());
        dispatcher.dispatch(RequestContext.exchange(Endpoint.MESSAGES, request, RequestContext.caller(request),
                messages.model(), messages.maxTokens(), body, messages, started), response);
    }

    private void count(ServerRequest request, ServerResponse response, byte[] body, long started) {
        MessagesRequest count = MessagesRequest.parseCount(body).withHeaders(anthropicHeaders(request));
        RequestSession.register(request, count.session());
        dispatcher.dispatch(RequestContext.exchange(Endpoint.COUNT_TOKENS, request, RequestContext.caller(request),
                count.model(), 0, body, count, started), response);
    }

    /**
     * The caller's {@code anthropic-*} headers that are well formed, with {@code anthropic-version}
     * added where the caller sent none; its credentials stay here.
     */
    private static List<Header> anthropicHeaders(ServerRequest request) {
        List<Header> headers = new ArrayList<>(2);
        boolean version = false;
        for (Header header : request.headers()) {
            String name = header.name().toLowerCase(Locale.ROOT);
            if (name.startsWith(ANTHROPIC_HEADERS) && HeaderSyntax.isName(name)
                    && header.allValues().stream().allMatch(HeaderSyntax::isValue)) {
                headers.add(header);
                version |= name.equals(VERSION.lowerCase());
            }
        }
        if (!version) {
            headers.add(DEFAULT_VERSION);
        }
        return headers;
    }
}
