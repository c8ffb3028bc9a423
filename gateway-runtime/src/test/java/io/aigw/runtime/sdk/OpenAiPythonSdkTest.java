package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.OpenAiPython;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The official OpenAI Python SDK, pointed at the gateway, reads its model list as it reads OpenAI's. */
public final class OpenAiPythonSdkTest {
    /** Lists, retrieves and misses, printing what the SDK's typed objects hold as one JSON document. */
    private static final String MODELS = """
            import json, sys, openai
            client = openai.OpenAI(base_url=sys.argv[1], api_key=sys.argv[2], max_retries=0)
            listed = client.models.list()
            retrieved = client.models.retrieve("openai/gpt-5")
            try:
                client.models.retrieve("openai/gpt-6")
                missing = None
            except openai.NotFoundError as e:
                missing = {"status": e.status_code, "code": e.code}
            print(json.dumps({
                "listed": [{"id": m.id, "object": m.object, "created": m.created, "owned_by": m.owned_by}
                           for m in listed.data],
                "retrieved": retrieved.model_dump(exclude_unset=True),
                "missing": missing}))
            """;

    @Test
    void modelsListAndRetrieveGiveTypedModelsWithTheirCreationTimeAndAnUnknownIdRaisesNotFound() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            JsonArray served = Json.createReader(new StringReader(gateway.send(gateway.request("/api/v1/models")
                    .build()).body())).readObject().getJsonArray("data");

            JsonObject seen = Json.createReader(new StringReader(OpenAiPython.run(MODELS,
                    gateway.uri("/api/v1").toString(), TestGateway.KEY))).readObject();

            // What the SDK's Model holds of each is OpenAI's four members, as the gateway sent them.
            List<JsonObject> expected = served.stream().map(JsonValue::asJsonObject)
                    .map(model -> Json.createObjectBuilder().add("id", model.get("id")).add("object", model.get("object"))
                            .add("created", model.get("created")).add("owned_by", model.get("owned_by")).build())
                    .toList();
            assertEquals(expected, seen.getJsonArray("listed").stream().map(JsonValue::asJsonObject).toList());
            JsonObject gpt5 = served.stream().map(JsonValue::asJsonObject)
                    .filter(model -> model.getString("id").equals("openai/gpt-5")).findFirst().orElseThrow();
            assertEquals(gpt5, seen.getJsonObject("retrieved"));
            assertEquals(Json.createObjectBuilder().add("status", 404).add("code", "model_not_found").build(),
                    seen.getJsonObject("missing"));
        }
    }
}
