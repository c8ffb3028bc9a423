package io.aigw.runtime.metering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One walk over a whole answer gives what tracing records of it (model, id, finish reasons) and
 * the same usage as the search from the answer's end.
 */
public final class AnswerReadingTest {

    @Test
    void aChatCompletionGivesItsModelIdEachChoicesFinishReasonAndItsUsage() {
        String answer = "{\"id\":\"chatcmpl-\\u0041b\",\"object\":\"chat.completion\",\"model\":\"gpt-5-2025\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"say \\\"model\\\": x\","
                + "\"model\":\"not-this\"},\"finish_reason\":\"stop\"},{\"index\":1,\"message\":{},"
                + "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":7,"
                + "\"total_tokens\":19}}";

        AnswerReading reading = read(UsageFormat.CHAT_COMPLETIONS, answer);

        assertEquals(new ResponseFacts(Optional.of("gpt-5-2025"), Optional.of("chatcmpl-Ab"), List.of("stop", "length")),
                reading.facts());
        assertEquals(UsageFormat.CHAT_COMPLETIONS.inAnswer(bytes(answer), 0, answer.length()), reading.usage());
        assertEquals(19, reading.usage().orElseThrow().totalTokens());
    }

    @Test
    void anAnthropicMessageGivesItsStopReasonAndItsUsageCountedAsTheSearchCountsIt() {
        String answer = "{\"id\":\"msg_1\",\"type\":\"message\",\"model\":\"claude-sonnet-4-5-20250929\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"max_tokens\","
                + "\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":5,\"output_tokens\":3}}";

        AnswerReading reading = read(UsageFormat.MESSAGES, answer);

        assertEquals(new ResponseFacts(Optional.of("claude-sonnet-4-5-20250929"), Optional.of("msg_1"),
                List.of("max_tokens")), reading.facts());
        assertEquals(UsageFormat.MESSAGES.inAnswer(bytes(answer), 0, answer.length()), reading.usage());
    }

    @Test
    void aCompletedResponseGivesItsStatusAndEmbeddingsTheirModelAlone() {
        AnswerReading response = read(UsageFormat.RESPONSES, "{\"id\":\"resp_1\",\"status\":\"completed\","
                + "\"incomplete_details\":null,\"model\":\"gpt-5\",\"output\":[],\"usage\":{\"input_tokens\":1,"
                + "\"output_tokens\":2,\"total_tokens\":3}}");
        AnswerReading embeddings = read(UsageFormat.EMBEDDINGS, "{\"object\":\"list\",\"data\":[{\"object\":"
                + "\"embedding\",\"index\":0,\"embedding\":[0.1,-2.5e-3]}],\"model\":\"text-embedding-3-small\","
                + "\"usage\":{\"prompt_tokens\":4,\"total_tokens\":4}}");

        assertEquals(List.of("completed"), response.facts().finishReasons());
        assertEquals(2, response.usage().orElseThrow().completionTokens());
        assertEquals(new ResponseFacts(Optional.of("text-embedding-3-small"), Optional.empty(), List.of()),
                embeddings.facts());
        assertEquals(0, embeddings.usage().orElseThrow().completionTokens());
    }

    @Test
    void theStartOfAnAnswerGivesTheFactsBeforeItsEndAndAMalformedOneItsUsageFromTheEnd() {
        String start = "{\"id\":\"chatcmpl-1\",\"model\":\"gpt-5\",\"choices\":[{\"message\":{\"content\":\"lo";
        String malformed = "{\"id\":\"chatcmpl-1\" \"model\":\"gpt-5\",\"usage\":{\"prompt_tokens\":1,"
                + "\"completion_tokens\":2,\"total_tokens\":3}}";

        assertEquals(new ResponseFacts(Optional.of("gpt-5"), Optional.of("chatcmpl-1"), List.of()),
                read(UsageFormat.CHAT_COMPLETIONS, start).facts());
        assertEquals(read(UsageFormat.CHAT_COMPLETIONS, start).facts(),
                UsageFormat.CHAT_COMPLETIONS.factsInStart(bytes(start), 0, start.length()));
        assertEquals(3, read(UsageFormat.CHAT_COMPLETIONS, malformed).usage().orElseThrow().totalTokens());
    }

    private static AnswerReading read(UsageFormat format, String answer) {
        byte[] json = bytes(answer);
        return format.readAnswer(json, 0, json.length);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
