package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.exchange.StoredCalls;
import io.aigw.runtime.store.ResponseOwner;
import io.aigw.runtime.store.ResponseOwners;
import io.aigw.runtime.store.StoreUnavailableException;
import io.aigw.runtime.upstream.StoredCall;
import io.aigw.spi.UpstreamApi;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.Optional;

/**
 * OpenAI's Responses API under {@code /api/v1/responses}. {@code POST /} reads and validates the
 * body into an {@link Exchange} and hands it to the {@link Dispatcher}, as chat completions do; the
 * response its upstream creates is remembered with its key and provider ({@link ResponseOwners}).
 * {@code GET /{id}}, {@code DELETE /{id}}, {@code GET /{id}/input_items} and
 * {@code POST /{id}/cancel} go to the provider that created the response, for the key that created
 * it alone: any other key, like an unknown id, gets 404 in the same words.
 */
public final class ResponsesService implements HttpService {
    private static final System.Logger LOG = System.getLogger(ResponsesService.class.getName());

    private final Dispatcher dispatcher;
    private final StoredCalls calls;
    private final ResponseOwners owners;
    private final RequestAdmission admission;

    /** @param admission the room every endpoint's requests share */
    public ResponsesService(Dispatcher dispatcher, StoredCalls calls, ResponseOwners owners,
                            RequestAdmission admission) {
        this.dispatcher = dispatcher;
        this.calls = calls;
        this.owners = owners;
        this.admission = admission;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", (request, response) -> admission.withBody(Endpoint.RESPONSES, request, response, this::create))
                .get("/{id}", (request, response) -> call(request, response, Method.GET, ""))
                .delete("/{id}", (request, response) -> call(request, response, Method.DELETE, ""))
                .get("/{id}/input_items", (request, response) -> call(request, response, Method.GET, "/input_items"))
                .post("/{id}/cancel", (request, response) -> call(request, response, Method.POST, "/cancel"));
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        Caller caller = RequestContext.caller(request);
        ResponsesRequest responses = ResponsesRequestReader.read(body, (route, upstreamKey, id) -> owners.remember(
                new ResponseOwner(id, caller.keyId(), route.provider().name(), upstreamKey, Instant.now())));
        responses.previousResponseId().ifPresent(previous -> refuseIfAnotherKeys(previous, caller));
        RequestSession.register(request, responses.session());
        dispatcher.dispatch(RequestContext.exchange(Endpoint.RESPONSES, request, caller, responses.model(),
                responses.maxOutputTokens(), body, responses, started), response);
    }

    /**
     * A response known to be another key's may not be continued. One the gateway does not know (made
     * before it, or straight at the provider) is the upstream's to judge; so is any while the store
     * cannot tell, rather than refusing every continued conversation during an outage.
     */
    private void refuseIfAnotherKeys(String previous, Caller caller) {
        Optional<ResponseOwner> owner;
        try {
            owner = owners.find(previous);
        } catch (StoreUnavailableException e) {
            LOG.log(Level.DEBUG, "The store cannot tell whose response a previous_response_id names; sent as it is");
            return;
        }
        if (owner.isPresent() && !owner.get().keyId().equals(caller.keyId())) {
            throw new ApiException(ApiError.responseNotFound(previous, "previous_response_id"));
        }
    }

    private void call(ServerRequest request, ServerResponse response, Method method, String suffix) {
        admission.withoutBody(request, response, (req, res, body, started) -> {
            if (method == Method.GET && req.query().contains("stream") && req.query().get("stream").equals("true")) {
                throw new ApiException(ApiError.invalidRequest("stream", "The gateway relays a stored response"
                        + " whole: retrieve it without stream=true."));
            }
            String id = req.path().pathParameters().get("id");
            Caller caller = RequestContext.caller(req);
            ResponseOwner owner = ownedBy(id, caller);
            StoredCall call = new StoredCall(method, UpstreamApi.RESPONSES, "/" + id + suffix,
                    req.query().rawValue());
            calls.forward(req.context(), caller, owner.provider(), owner.upstreamKey(), call,
                    RequestContext.requestId(req), started, res);
        });
    }

    /**
     * The response {@code id} when {@code caller} created it.
     *
     * @throws ApiException              404 when it is unknown or another key's
     * @throws StoreUnavailableException when the store cannot tell
     */
    private ResponseOwner ownedBy(String id, Caller caller) {
        if (!isPlainId(id)) {
            throw new ApiException(ApiError.responseNotFound(id, null));
        }
        // A store that cannot tell answers 503 with Retry-After (ErrorAnswers).
        return owners.find(id).filter(found -> found.keyId().equals(caller.keyId()))
                .orElseThrow(() -> new ApiException(ApiError.responseNotFound(id, null)));
    }

    /** Ids are letters, digits, {@code _} and {@code -}: nothing else reaches the upstream's path. */
    private static boolean isPlainId(String id) {
        if (id.isEmpty() || id.length() > ResponseOwner.MAX_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c < 128 && Character.isLetterOrDigit(c)) && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }
}
