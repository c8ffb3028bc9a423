package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.store.KeyPolicy;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The policy members of an admin body ({@code models}, {@code expires_at}, {@code rpm},
 * {@code tpm}), shared by {@code POST} and {@code PATCH}: a member sent sets that part, one sent
 * as {@code null} clears it, one left out keeps what the key had.
 */
public final class PolicyMembers {
    /** The longest model pattern, as the longest model id a usage record keeps. */
    static final int MAX_PATTERN = 300;
    static final int MAX_PATTERNS = 1000;
    /** Past any real limit, and far from overflowing a counter. */
    static final long MAX_LIMIT = 1_000_000_000_000L;

    static final String MODELS_RULE = "'models' must be a non-empty array of model ids or patterns ('openai/*'),"
            + " each at most " + MAX_PATTERN + " characters without control characters; null allows every model.";
    static final String EXPIRES_RULE = "'expires_at' must be a time in unix seconds, or null for a key that"
            + " does not expire.";
    static final String RPM_RULE = "'rpm' must be a whole number of requests a minute from 1 to " + MAX_LIMIT
            + ", or null for no limit.";
    static final String TPM_RULE = "'tpm' must be a whole number of tokens a minute from 1 to " + MAX_LIMIT
            + ", or null for no limit.";

    private PolicyMembers() {
    }

    /** The sentence saying what {@code member} must hold, for a value of the wrong kind. */
    static String rule(String member) {
        return switch (member) {
            case "models" -> MODELS_RULE;
            case "expires_at" -> EXPIRES_RULE;
            case "rpm" -> RPM_RULE;
            case "tpm" -> TPM_RULE;
            default -> null;
        };
    }

    /**
     * {@code base} with the members {@code present} in the body applied.
     *
     * @throws ApiException a 400 naming the member at fault
     */
    public static KeyPolicy apply(KeyPolicy base, Set<String> present, JsonValue models, Long expiresAt, Long rpm,
                                  Long tpm) {
        return new KeyPolicy(
                present.contains("models") ? models(models) : base.models(),
                present.contains("expires_at") ? expiry(expiresAt) : base.expiresAt(),
                present.contains("rpm") ? limit("rpm", rpm, RPM_RULE) : base.rpm(),
                present.contains("tpm") ? limit("tpm", tpm, TPM_RULE) : base.tpm());
    }

    /** Read as a JSON value, not a list: JSON-B reports a list of the wrong kind without naming its member. */
    private static List<String> models(JsonValue models) {
        if (models == null || models.getValueType() == JsonValue.ValueType.NULL) {
            return List.of();
        }
        if (!(models instanceof JsonArray patterns) || patterns.isEmpty() || patterns.size() > MAX_PATTERNS
                || !patterns.stream().allMatch(PolicyMembers::isPattern)) {
            throw new ApiException(ApiError.invalidRequest("models", MODELS_RULE));
        }
        return patterns.stream().map(pattern -> ((JsonString) pattern).getString()).distinct().toList();
    }

    private static boolean isPattern(JsonValue value) {
        if (!(value instanceof JsonString text)) {
            return false;
        }
        String pattern = text.getString();
        return !pattern.isEmpty() && pattern.length() <= MAX_PATTERN
                && pattern.codePoints().noneMatch(c -> Character.isISOControl(c)
                        || Character.getType(c) == Character.SURROGATE);
    }

    private static Optional<Instant> expiry(Long seconds) {
        if (seconds == null) {
            return Optional.empty();
        }
        if (seconds <= 0 || seconds > Instant.MAX.getEpochSecond() / 1000) {
            throw new ApiException(ApiError.invalidRequest("expires_at", EXPIRES_RULE));
        }
        return Optional.of(Instant.ofEpochSecond(seconds));
    }

    private static OptionalLong limit(String member, Long value, String rule) {
        if (value == null) {
            return OptionalLong.empty();
        }
        if (value < 1 || value > MAX_LIMIT) {
            throw new ApiException(ApiError.invalidRequest(member, rule));
        }
        return OptionalLong.of(value);
    }
}
