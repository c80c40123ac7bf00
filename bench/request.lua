-- wrk script of `make bench` (bench/bench.py sets the environment):
--   BENCH_METHOD  GET | POST            BENCH_PATH  request target
--   BENCH_BODY    request body (POST)   BENCH_KEY   API key for "Authorization: Bearer" (optional)
--   BENCH_MAX_REQUESTS  stop each thread after this many responses (optional; for the
--                       fixed-count RSS run)
-- Every response's status is checked: done() prints one machine-readable line with the
-- throughput, the latency percentiles and the number of responses that were not a 200,
-- so the report can prove that every response counted was a 200.
local method = os.getenv("BENCH_METHOD") or "GET"
local path = os.getenv("BENCH_PATH") or "/"
local body = os.getenv("BENCH_BODY")
local key = os.getenv("BENCH_KEY")
local max_requests = tonumber(os.getenv("BENCH_MAX_REQUESTS") or "0")

wrk.method = method
wrk.path = path
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
if key and key ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. key
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  responses = 0
  non200 = 0
  first_bad = ""
end

function response(status, headers, resp_body)
  responses = responses + 1
  if status ~= 200 then
    non200 = non200 + 1
    if first_bad == "" then first_bad = tostring(status) .. " " .. string.sub(resp_body or "", 1, 200) end
  end
  if max_requests > 0 and responses >= max_requests then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local total, bad, sample = 0, 0, ""
  for _, t in ipairs(threads) do
    total = total + t:get("responses")
    bad = bad + t:get("non200")
    local fb = t:get("first_bad")
    if sample == "" and fb and fb ~= "" then sample = fb end
  end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "BENCH_RESULT requests=%d responses=%d non200=%d seconds=%.3f rps=%.1f " ..
    "p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.1f " ..
    "err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d bytes=%d\n",
    summary.requests, total, bad, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    latency.mean, e.connect, e.read, e.write, e.status, e.timeout, summary.bytes))
  if sample ~= "" then
    io.write("BENCH_FIRST_NON200 " .. string.gsub(sample, "\n", " ") .. "\n")
  end
end
