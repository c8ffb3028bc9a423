-- wrk script: POST one chat completion per request, read to its end; when the run ends, write a
-- JSON summary to WRK_SUMMARY, if set.
-- Environment: CHAT_MODEL, CHAT_KEY (the bearer token), CHAT_STREAM (true: streamed answers),
-- WRK_SUMMARY (a file).
-- Extra request headers as script arguments: wrk ... -s chat.lua URL -- "Name: value" ...

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("CHAT_KEY")
wrk.body = string.format(
    '{"model":"%s",%s"messages":[{"role":"user","content":"Say hello."}],"max_tokens":16}',
    os.getenv("CHAT_MODEL"), os.getenv("CHAT_STREAM") == "true" and '"stream":true,' or '')

function init(args)
    for _, header in ipairs(args) do
        local name, value = header:match("^([^:]+):%s*(.*)$")
        if name then wrk.headers[name] = value end
    end
end

-- wrk counts microseconds; the summary is in milliseconds. non_2xx is wrk's count of answers with a
-- status of 400 or more.
function done(summary, latency, requests)
    if not os.getenv("WRK_SUMMARY") then return end
    local errors = summary.errors
    local seconds = summary.duration / 1e6
    local out = assert(io.open(os.getenv("WRK_SUMMARY"), "w"))
    out:write(string.format(
        '{"requests":%d,"duration_s":%.3f,"rps":%.1f,"p50_ms":%.3f,"p90_ms":%.3f,"p99_ms":%.3f,' ..
        '"max_ms":%.3f,"non_2xx":%d,"socket_errors":%d}\n',
        summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
        latency.max / 1000, errors.status, errors.connect + errors.read + errors.write + errors.timeout))
    out:close()
end
