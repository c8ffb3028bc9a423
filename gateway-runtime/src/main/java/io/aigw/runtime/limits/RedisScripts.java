package io.aigw.runtime.limits;

/**
 * The Lua scripts that keep a key's window in one Redis hash: {@code s} the window's start and
 * {@code r}, {@code k} its requests and tokens, in Redis's own clock (so replicas whose clocks
 * differ share one window), the hash expiring with the window. Redis runs a script whole, with
 * nothing else between its steps, so each check and reservation is one atomic round trip.
 */
final class RedisScripts {
    /**
     * KEYS: the window's hash. ARGV: rpm, tpm (0: none), tokens wanted, window length (ms).
     * Returns {refused (0 no, 1 requests, 2 tokens), window start, requests, tokens, ms to reset}.
     */
    static final String RESERVE = """
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            local window = tonumber(ARGV[4])
            local held = redis.call('HMGET', KEYS[1], 's', 'r', 'k')
            local start = tonumber(held[1])
            local requests = tonumber(held[2]) or 0
            local tokens = tonumber(held[3]) or 0
            if start == nil or now - start >= window then
                start = now
                requests = 0
                tokens = 0
            end
            local rpm = tonumber(ARGV[1])
            local tpm = tonumber(ARGV[2])
            local wanted = tonumber(ARGV[3])
            local refused = 0
            if rpm > 0 and requests + 1 > rpm then
                refused = 1
            elseif tpm > 0 and tokens + wanted > tpm then
                refused = 2
            else
                requests = requests + 1
                tokens = tokens + wanted
                redis.call('HSET', KEYS[1], 's', string.format('%.0f', start), 'r', requests,
                    'k', string.format('%.0f', tokens))
                redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', start + window))
            end
            return {refused, start, requests, tokens, start + window - now}
            """;

    /**
     * KEYS: the window's hash. ARGV: the start of the window reserved in, requests and tokens to add
     * (negative to give back). Changes nothing once that window has ended.
     */
    static final String ADJUST = """
            if redis.call('HGET', KEYS[1], 's') == ARGV[1] then
                redis.call('HINCRBY', KEYS[1], 'r', ARGV[2])
                local tokens = redis.call('HINCRBY', KEYS[1], 'k', ARGV[3])
                if tokens < 0 then
                    redis.call('HSET', KEYS[1], 'k', 0)
                end
            end
            return 0
            """;

    private RedisScripts() {
    }
}
