package io.aigw.runtime.api;

import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * Makes the body sent upstream from the caller's bytes: {@code model} replaced, fields a provider
 * rejects dropped, {@code stream_options.include_usage} set when the gateway needs it. Nothing is
 * re-serialised: the bytes between the changes are copied as they came, so every other field keeps
 * its exact text, order and form, numbers included. Spliced, never bound: JSON-B would write the
 * caller's bytes anew (escapes, number forms, white space), and at 1 KB takes 2.5 times as long
 * as parse and splice ({@code ChatBodyJsonbBenchmark} beside {@code ChatRequestBenchmark}).
 */
final class BodySplice {
    static final String STREAM_OPTIONS = "stream_options";
    private static final byte[] USAGE_OPTION = "\"stream_options\":{\"include_usage\":true},"
            .getBytes(StandardCharsets.UTF_8);

    private final byte[] body;
    private final String model;
    private final List<Member> members;

    /**
     * @param body    a validated JSON object
     * @param model   the value of its {@code model}
     * @param members every top-level member of {@code body}, in order
     */
    BodySplice(byte[] body, String model, List<Member> members) {
        this.body = body;
        this.model = model;
        this.members = members;
    }

    /** The body exactly as the caller sent it. */
    byte[] original() {
        return body;
    }

    /**
     * Returns the body to forward: the caller's bytes with {@code model} set to {@code upstreamModel},
     * the top-level fields in {@code dropped} removed and, when {@code addUsage}, with
     * {@code stream_options.include_usage} set. Returns the original array when nothing changes.
     */
    byte[] apply(String upstreamModel, Set<String> dropped, boolean addUsage) {
        boolean modelChanges = !upstreamModel.equals(model);
        boolean dropsAny = false;
        Member streamOptions = null;
        for (Member member : members) {
            dropsAny |= dropped.contains(member.name());
            if (streamOptions == null && member.name().equals(STREAM_OPTIONS)) {
                streamOptions = member;
            }
        }
        if (!modelChanges && !dropsAny && !addUsage) {
            return body;
        }
        byte[] modelJson = jsonString(upstreamModel).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + modelJson.length + USAGE_OPTION.length);
        int copied = 0;
        if (addUsage && streamOptions == null) {
            // Right after the opening brace: every body has a model after it, so the comma is always right.
            copied = indexOf(body, (byte) '{') + 1;
            out.write(body, 0, copied);
            out.writeBytes(USAGE_OPTION);
        }
        boolean first = true;
        for (Member member : members) {
            if (dropped.contains(member.name())) {
                // Cut from the end of the previous member (or from this key, when it is the first)
                // to the end of this one, so exactly one separating comma goes with it.
                int cutFrom = first ? member.keyStart() : member.previousEnd();
                out.write(body, copied, cutFrom - copied);
                copied = first ? skipCommaAfter(member.valueEnd()) : member.valueEnd();
                continue;
            }
            first = false;
            if (member.name().equals("model") && modelChanges) {
                out.write(body, copied, member.valueStart() - copied);
                out.writeBytes(modelJson);
                copied = member.valueEnd();
            } else if (member == streamOptions && addUsage) {
                out.write(body, copied, member.valueStart() - copied);
                out.writeBytes(withIncludeUsage(member));
                copied = member.valueEnd();
            }
        }
        out.write(body, copied, body.length - copied);
        return out.toByteArray();
    }

    /** The caller's stream options with {@code include_usage} set to true and every other option kept. */
    private byte[] withIncludeUsage(Member member) {
        String value = new String(body, member.valueStart(), member.valueEnd() - member.valueStart(),
                StandardCharsets.UTF_8);
        JsonObjectBuilder options = Jsons.PROVIDER.createObjectBuilder().add("include_usage", true);
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(value))) {
            if (reader.readValue() instanceof JsonObject object) {
                object.forEach((name, option) -> {
                    if (!name.equals("include_usage")) {
                        options.add(name, option);
                    }
                });
            }
        }
        return options.build().toString().getBytes(StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        throw new IllegalStateException("a validated body starts with '{'");
    }

    /**
     * Writes {@code value} as a JSON string. Parsson's writer would leave a lone surrogate (which a
     * caller can send as a JSON escape) unescaped, and UTF-8 has no bytes for one: it would reach
     * the upstream as {@code ?}, another model than the caller named.
     */
    private static String jsonString(String value) {
        StringBuilder json = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                json.append(c).append(value.charAt(++i));
                continue;
            }
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }

    private int skipCommaAfter(int position) {
        int at = position;
        while (at < body.length && isWhitespace(body[at])) {
            at++;
        }
        if (at < body.length && body[at] == ',') {
            at++;
            while (at < body.length && isWhitespace(body[at])) {
                at++;
            }
        }
        return at;
    }

    /** JSON's white space (RFC 8259, section 2). */
    static boolean isWhitespace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /**
     * Where one top-level member stands in the body: its key's opening quote, its value, and where
     * the previous member ended (-1 for the first), in bytes.
     */
    record Member(String name, int keyStart, int valueStart, int valueEnd, int previousEnd) {
    }
}
