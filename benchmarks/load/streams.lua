-- wrk script: POST a streamed chat completion and read it to the end.
-- Environment: BENCH_MODEL, BENCH_KEY.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
wrk.body = string.format(
    '{"model":"%s","stream":true,"messages":[{"role":"user","content":"Say hello."}]}',
    os.getenv("BENCH_MODEL"))
