package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.UsageFormat;

/**
 * OpenAI's Embeddings: one whole JSON answer, whose {@code usage} counts input tokens alone. The
 * API has no stream, so a request on it is never relayed as one: the stream's rules are chat's,
 * the wire format embeddings' answers share.
 */
final class EmbeddingsFormat implements WireFormat {

    @Override
    public UsageFormat usage() {
        return UsageFormat.EMBEDDINGS;
    }

    @Override
    public boolean endsStream(byte[] event, int from, int to) {
        return CHAT_COMPLETIONS.endsStream(event, from, to);
    }

    @Override
    public byte[] cutEvent(String message, String code) {
        return CHAT_COMPLETIONS.cutEvent(message, code);
    }
}
