package io.aigw.runtime.limits;

/**
 * The Lua scripts that keep a key's window in one Redis hash: {@code s} the window's start and
 * {@code r}, {@code k} its requests and tokens, in Redis's own clock (so replicas whose clocks
 * differ share one window), the hash expiring with the window. A key with a budget also has a hash
 * for its spend in the current period: {@code n} nano-dollars, reservations included, and {@code g}
 * the generation, a token chosen when the count was rebuilt from the database. Redis runs a script
 * whole, with nothing else between its steps, so each check and reservation is one atomic round trip.
 *
 * <p>Lua counts in doubles: exact up to 2<sup>53</sup>, far above any budget the admin API takes
 * (USD 1 000 000 is 10<sup>15</sup> nano-dollars); the stored counts change by {@code HINCRBY}, in integers.
 */
final class RedisScripts {
    /**
     * KEYS: the window's hash, the spend's hash. ARGV: rpm, tpm (0: none), tokens wanted, window length
     * (ms), budget (nano-dollars, 0: none), cost wanted, the spend so far to seed a missing count with
     * ('' when not read yet), the generation of that seed, when the spend's hash expires (unix ms, 0: never).
     * Returns {refused (0 no, 1 requests, 2 tokens, 3 budget, 4 the spend must be read first), window
     * start, requests, tokens, ms to reset, spend, spend's generation}.
     */
    static final String RESERVE = """
            local budget = tonumber(ARGV[5])
            local cost = tonumber(ARGV[6])
            local spent = 0
            local generation = ''
            if budget > 0 then
                local counted = redis.call('HMGET', KEYS[2], 'n', 'g')
                if counted[1] then
                    spent = tonumber(counted[1])
                    generation = counted[2] or ''
                elseif ARGV[7] == '' then
                    return {4, 0, 0, 0, 0, 0, ''}
                else
                    spent = tonumber(ARGV[7])
                    generation = ARGV[8]
                    redis.call('HSET', KEYS[2], 'n', ARGV[7], 'g', generation)
                    if ARGV[9] ~= '0' then
                        redis.call('PEXPIREAT', KEYS[2], ARGV[9])
                    end
                end
            end
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
            elseif budget > 0 and spent + cost > budget then
                refused = 3
            else
                requests = requests + 1
                tokens = tokens + wanted
                redis.call('HSET', KEYS[1], 's', string.format('%.0f', start), 'r', requests,
                    'k', string.format('%.0f', tokens))
                redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', start + window))
                if budget > 0 then
                    spent = redis.call('HINCRBY', KEYS[2], 'n', ARGV[6])
                end
            end
            return {refused, start, requests, tokens, start + window - now, spent, generation}
            """;

    /**
     * Any number of adjustments, in one round trip. For each, two KEYS: the window's hash, the spend's
     * hash; six ARGV: the start of the window reserved in, requests and tokens to add (negative to give
     * back), the spend's generation reserved in, the cost to add to it, the whole cost. Changes no
     * window once it has ended. A spend rebuilt since the reservation (another generation) never
     * counted it: it gets the whole cost, which the usage record, not yet offered when it was rebuilt,
     * will hold. A spend missing is left to be rebuilt, and the rebuild counts the usage record.
     */
    static final String ADJUST = """
            for i = 0, #KEYS / 2 - 1 do
                local window = KEYS[2 * i + 1]
                local spend = KEYS[2 * i + 2]
                local a = 6 * i
                if redis.call('HGET', window, 's') == ARGV[a + 1] then
                    redis.call('HINCRBY', window, 'r', ARGV[a + 2])
                    local tokens = redis.call('HINCRBY', window, 'k', ARGV[a + 3])
                    if tokens < 0 then
                        redis.call('HSET', window, 'k', 0)
                    end
                end
                if ARGV[a + 4] ~= '' then
                    local generation = redis.call('HGET', spend, 'g')
                    local add = nil
                    if generation == ARGV[a + 4] then
                        add = ARGV[a + 5]
                    elseif generation then
                        add = ARGV[a + 6]
                    end
                    if add and add ~= '0' then
                        if redis.call('HINCRBY', spend, 'n', add) < 0 then
                            redis.call('HSET', spend, 'n', 0)
                        end
                    end
                end
            end
            return 0
            """;

    private RedisScripts() {
    }
}
