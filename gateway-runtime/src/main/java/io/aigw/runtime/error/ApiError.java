package io.aigw.runtime.error;

import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;

/**
 * An error in the OpenAI shape, {@code {"error":{"message","type","param","code"}}}, with the HTTP
 * status a user of the OpenAI SDKs expects for it.
 *
 * @param param the request field at fault, or {@code null}
 * @param code  a machine-readable code, or {@code null}
 */
public record ApiError(Status status, String message, String type, String param, String code) {

    /** The caller's request is wrong; {@code param} names the field, or is null for the whole body. */
    public static ApiError invalidRequest(String param, String message) {
        return new ApiError(Status.BAD_REQUEST_400, message, "invalid_request_error", param, null);
    }

    /** No, a malformed or an unknown workspace key; the same answer for all so none is told apart. */
    public static ApiError invalidApiKey() {
        return new ApiError(Status.UNAUTHORIZED_401,
                "Invalid or missing workspace key. Send 'Authorization: Bearer sk-gw-...'.",
                "authentication_error", null, "invalid_api_key");
    }

    /** As {@link #invalidApiKey()}, for the Anthropic surface, which takes the key in either header. */
    public static ApiError invalidAnthropicKey() {
        return new ApiError(Status.UNAUTHORIZED_401,
                "Invalid or missing workspace key. Send it as 'x-api-key: sk-gw-...' or 'Authorization: Bearer sk-gw-...'.",
                "authentication_error", null, "invalid_api_key");
    }

    /** A known key past its {@code expires_at}: refused as a revoked one is, with a message that says why. */
    public static ApiError expiredApiKey() {
        return new ApiError(Status.UNAUTHORIZED_401, "This workspace key has expired; ask an admin for a new one"
                + " or a later expiry.", "authentication_error", null, "invalid_api_key");
    }

    /** The key's {@code models} policy does not list the model asked for. */
    public static ApiError modelNotAllowed(String model) {
        String shown = model.length() > 100 ? model.substring(0, 100) + "..." : model;
        return new ApiError(Status.FORBIDDEN_403, "This workspace key may not use the model '" + shown + "';"
                + " GET /api/v1/models lists those it may.", "permission_error", "model", "model_not_allowed");
    }

    /**
     * The key's request or token limit has no room for this request now; {@code type} is
     * {@code requests} or {@code tokens}, which limit it was, as OpenAI's own 429s say.
     */
    public static ApiError rateLimited(String type, String message) {
        return new ApiError(Status.TOO_MANY_REQUESTS_429, message, type, null, "rate_limit_exceeded");
    }

    /**
     * The request's token estimate alone is over its key's {@code tpm}: no window will ever have room
     * for it, so a status the SDKs do not retry, and no {@code Retry-After}.
     */
    public static ApiError requestExceedsTpm(String message) {
        return new ApiError(Status.BAD_REQUEST_400, message, "invalid_request_error", null, "request_exceeds_tpm");
    }

    /** The key's USD budget has no room for this request's estimated cost in the current period. */
    public static ApiError insufficientQuota(String message) {
        return new ApiError(Status.TOO_MANY_REQUESTS_429, message, "insufficient_quota", null, "insufficient_quota");
    }

    /**
     * A key with a USD budget asked for a model without a price: its cost cannot be bounded before the
     * call, so the budget could not hold.
     */
    public static ApiError modelNotPriced(String model) {
        String shown = model.length() > 100 ? model.substring(0, 100) + "..." : model;
        return new ApiError(Status.FORBIDDEN_403, "This workspace key has a USD budget and the model '" + shown
                + "' has no price in the gateway's price table, so its cost cannot be reserved before the call."
                + " Use a priced model, or ask an admin to price it (a pricing in providers.<name>.models).", "permission_error",
                "model", "model_not_priced");
    }

    /** The rate-limit store cannot be reached and {@code gateway.limits.on-store-failure} is {@code deny}. */
    public static ApiError limitsUnavailable() {
        return new ApiError(Status.SERVICE_UNAVAILABLE_503, "The gateway cannot check this key's rate limits now:"
                + " its limit store is unreachable. Retry shortly.", "server_error", null, "limits_unavailable");
    }

    /** The model's prefix names no installed provider and no catch-all is installed. */
    public static ApiError modelNotFound(String model) {
        return new ApiError(Status.NOT_FOUND_404,
                "The model '" + model + "' does not exist: no installed provider serves its prefix.",
                "invalid_request_error", "model", "model_not_found");
    }

    /** The request body is larger than the gateway accepts. */
    public static ApiError requestTooLarge(long limitBytes) {
        return new ApiError(Status.REQUEST_ENTITY_TOO_LARGE_413,
                "The request body is larger than the limit of " + limitBytes + " bytes (gateway.max-body-size).",
                "invalid_request_error", null, "request_too_large");
    }

    /**
     * The model routes to a provider that has no upstream key: the operator's configuration, which no
     * retry changes, so a status the SDKs do not retry; {@code message} names the provider and the
     * settings that give it a key.
     */
    public static ApiError providerNotConfigured(String message) {
        return new ApiError(Status.BAD_REQUEST_400, message, "invalid_request_error", "model", "provider_not_configured");
    }

    /**
     * The model routes to a provider whose upstream does not serve the API it was asked on: no retry
     * changes that, so a 400 that names the provider and the endpoint.
     */
    public static ApiError apiNotServed(String model, String provider, String endpoint) {
        return new ApiError(Status.BAD_REQUEST_400, "The model '" + model + "' goes to the provider '" + provider
                + "', which does not serve " + endpoint + " on this gateway; use a model of a provider that does"
                + " (GET /api/v1/models).", "invalid_request_error", "model", "unsupported_endpoint");
    }

    /**
     * No response with this id is known to be the caller's: unknown, or created by another key, with
     * the same words for both, so that no key can learn which ids exist.
     */
    public static ApiError responseNotFound(String id, String param) {
        return new ApiError(Status.NOT_FOUND_404, "Response with id '" + id + "' not found.",
                "invalid_request_error", param, "response_not_found");
    }

    /** The gateway could not get an answer from an upstream: unreachable, or every provider failed. */
    public static ApiError upstream(String message) {
        return new ApiError(Status.BAD_GATEWAY_502, message, "upstream_error", null, null);
    }

    /** The upstream did not answer in time. */
    public static ApiError upstreamTimeout(String message) {
        return new ApiError(Status.GATEWAY_TIMEOUT_504, message, "upstream_error", null, "timeout");
    }

    /** The gateway already relays as many requests as it may hold at once. */
    public static ApiError overloaded(int limit) {
        return new ApiError(Status.SERVICE_UNAVAILABLE_503, "The gateway is relaying its limit of " + limit
                + " concurrent requests (gateway.max-concurrent-requests); retry shortly.",
                "server_error", null, "overloaded");
    }

    /** The request bodies in flight hold the heap set aside for them; this one must wait its turn. */
    public static ApiError bodiesOverloaded(long budgetBytes) {
        return new ApiError(Status.SERVICE_UNAVAILABLE_503, "The gateway is holding as many request bodies as its"
                + " " + budgetBytes / (1024 * 1024) + " MB for them allow (gateway.body-memory); retry shortly.",
                "server_error", null, "overloaded");
    }

    /** The heap ran out while this request was answered: the gateway is busier than its limits foresaw. */
    public static ApiError outOfMemory() {
        return new ApiError(Status.SERVICE_UNAVAILABLE_503, "The gateway is out of memory for this request just now;"
                + " retry shortly.", "server_error", null, "overloaded");
    }

    /** The gateway is stopping, and a request still waiting when its grace period ended is let go. */
    public static ApiError shuttingDown() {
        return new ApiError(Status.SERVICE_UNAVAILABLE_503, "The gateway is stopping and could not finish this"
                + " request within its grace period (gateway.shutdown.grace-period); retry it.", "server_error", null,
                "shutting_down");
    }

    /** The gateway's database cannot serve now (down, full, not writable): a key not cached cannot be checked, a key not made. */
    public static ApiError storeUnavailable() {
        return new ApiError(Status.SERVICE_UNAVAILABLE_503, "The gateway's database cannot serve this request just"
                + " now; retry after the time in Retry-After.", "server_error", null, "database_unavailable");
    }

    /** An error the HTTP layer found before any handler ran: no such path, a wrong method, a bad request. */
    public static ApiError fromHttp(Status status) {
        String code = switch (status.code()) {
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            default -> null;
        };
        String message = switch (status.code()) {
            case 404 -> "No such endpoint. The gateway serves POST /api/v1/chat/completions and GET /api/v1/models.";
            case 405 -> "This endpoint does not take that method.";
            default -> "The request was refused: " + status.reasonPhrase() + ".";
        };
        // 501 and 505 name what the caller's HTTP asked for, not a failure of the gateway.
        boolean callers = status.code() < 500 || status.code() == 501 || status.code() == 505;
        String type = callers ? "invalid_request_error" : "server_error";
        return new ApiError(status, message, type, null, code);
    }

    /** Returns the JSON body of this error. */
    public byte[] toJson() {
        return toJson(message, type, param, code);
    }

    /**
     * Writes an OpenAI error body; {@code null} fields become JSON nulls. With JSON-P's builder, not
     * JSON-B, which takes about a sixth longer for this body ({@code ErrorBodyBenchmark}).
     */
    public static byte[] toJson(String message, String type, String param, String code) {
        JsonObjectBuilder error = Jsons.PROVIDER.createObjectBuilder();
        addOrNull(error, "message", message);
        addOrNull(error, "type", type);
        addOrNull(error, "param", param);
        addOrNull(error, "code", code);
        return Jsons.PROVIDER.createObjectBuilder().add("error", error).build().toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Sends this error as the whole response. */
    public void send(ServerResponse response) {
        send(response, ErrorShape.OPENAI, null);
    }

    /** Sends this error as the whole response, in {@code shape}; {@code requestId} is the request's id. */
    public void send(ServerResponse response, ErrorShape shape, String requestId) {
        response.status(status);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(shape.body(status.code(), toJson(), requestId));
    }

    private static void addOrNull(JsonObjectBuilder builder, String name, String value) {
        if (value == null) {
            builder.addNull(name);
        } else {
            builder.add(name, value);
        }
    }
}
