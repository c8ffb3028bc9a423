package io.aigw.runtime.upstream;

import io.aigw.runtime.transport.HeaderSyntax;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of an upstream's headers reach the caller: its {@code Content-Type}, the
 * {@code Retry-After} and {@code x-ratelimit-*} headers an SDK backs off by, Anthropic's
 * {@code request-id} and {@code anthropic-*} headers (its rate limits among them), which its SDKs
 * read, and the {@code Location} of a redirect (3xx), which the gateway passes back rather than
 * follows and which is the point of such an answer. Each is passed on only when well formed
 * ({@link HeaderSyntax}), so that an upstream cannot break or split the caller's answer; the
 * client itself leaves the headers it parses unchecked.
 */
final class RelayedHeaders {
    private static final String RATE_LIMIT = "x-ratelimit-";
    private static final String ANTHROPIC_RATE_LIMIT = "anthropic-ratelimit-";
    private static final String LOCATION = "location";
    private static final String REQUEST_ID = "request-id";
    private static final List<String> RELAYED_PREFIXES = List.of("retry-after", RATE_LIMIT, "anthropic-");
    private static final List<HeaderName> GATEWAY_LIMITS = List.of(
            HeaderNames.create("x-ratelimit-limit-requests"), HeaderNames.create("x-ratelimit-limit-tokens"),
            HeaderNames.create("anthropic-ratelimit-requests-limit"),
            HeaderNames.create("anthropic-ratelimit-tokens-limit"));

    private RelayedHeaders() {
    }

    /**
     * The upstream's headers that tell an SDK when to retry, Anthropic's own, and a redirect's
     * {@code Location}, those of them that are well formed.
     */
    static List<Header> of(HttpClientResponse upstream) {
        int status = upstream.status().code();
        boolean redirect = status >= 300 && status < 400;
        List<Header> relayed = new ArrayList<>();
        for (Header header : upstream.headers()) {
            // Every value: a header the upstream sent more than once holds them all.
            if ((isRelayed(header.name()) || redirect && header.name().equalsIgnoreCase(LOCATION))
                    && HeaderSyntax.isName(header.name())
                    && allValid(header.allValues())) {
                relayed.add(header);
            }
        }
        return relayed;
    }

    /**
     * Adds the relayed {@code headers} to the caller's answer. Where the gateway has put its own
     * rate-limit headers on it (a key with rate limits), those are what the caller's SDK must read,
     * so none of the upstream's is added; its {@code Retry-After} still is.
     */
    static void addTo(ServerResponse response, List<Header> headers) {
        if (headers.isEmpty()) {
            return;
        }
        boolean gatewayLimits = false;
        for (HeaderName limit : GATEWAY_LIMITS) {
            gatewayLimits |= response.headers().contains(limit);
        }
        for (Header header : headers) {
            if (!(gatewayLimits && (startsWith(header.name(), RATE_LIMIT)
                    || startsWith(header.name(), ANTHROPIC_RATE_LIMIT)))) {
                response.header(header);
            }
        }
    }

    private static boolean allValid(List<String> values) {
        for (String value : values) {
            if (!HeaderSyntax.isValue(value)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isRelayed(String name) {
        if (name.equalsIgnoreCase(REQUEST_ID)) {
            return true;
        }
        for (String prefix : RELAYED_PREFIXES) {
            if (startsWith(name, prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWith(String name, String prefix) {
        return name.regionMatches(true, 0, prefix, 0, prefix.length());
    }

    /**
     * The upstream's Content-Type as it was sent, when it is well formed: parsed into a media type
     * it would only be written out again.
     */
    static String contentType(HttpClientResponse upstream, String otherwise) {
        return upstream.headers().first(HeaderNames.CONTENT_TYPE).filter(HeaderSyntax::isValue).orElse(otherwise);
    }

    /**
     * Whether the answer is an event stream, read from the header's text up to its parameters:
     * parsing a media type costs a stream's time to first byte, on code that runs cold between a
     * stream's events.
     */
    static boolean isEventStream(HttpClientResponse upstream) {
        String type = contentType(upstream, "");
        int parameters = type.indexOf(';');
        return (parameters < 0 ? type : type.substring(0, parameters)).strip().equalsIgnoreCase("text/event-stream");
    }
}
