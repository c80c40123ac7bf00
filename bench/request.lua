-- wrk script of `make bench` (bench/bench.py sets the environment):
--   BENCH_METHOD  GET | POST            BENCH_PATH  request target
--   BENCH_BODY    request body (POST)   BENCH_KEY   API key for "Authorization: Bearer" (optional)
--   BENCH_CHECK_EACH=1  pass every response to Lua and count those that are not a 200
--   BENCH_MAX_REQUESTS  stop each thread after this many responses (optional; for the
--                       fixed-count RSS run; implies BENCH_CHECK_EACH)
-- Without BENCH_CHECK_EACH no `response` function is defined, so wrk parses responses in C
-- only: handing each one to LuaJIT (a header table and the body as a new string) costs
-- wrk more than the server spends on it and makes wrk the bottleneck, more so for
-- responses that differ each time (toolcalc's request ids) than for nginx's fixed bytes
-- (docs/performance.md, "How the load is measured"). wrk itself still counts every
-- response with a status of 400 or more and every socket error.
-- done() prints one machine-readable line with the throughput, the latency percentiles
-- and those counts.
local method = os.getenv("BENCH_METHOD") or "GET"
local path = os.getenv("BENCH_PATH") or "/"
local body = os.getenv("BENCH_BODY")
local key = os.getenv("BENCH_KEY")
local max_requests = tonumber(os.getenv("BENCH_MAX_REQUESTS") or "0")
local check_each = os.getenv("BENCH_CHECK_EACH") == "1" or max_requests > 0

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

if check_each then
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
  if not check_each then  -- wrk's own count: responses with a status of 400 or more
    total, bad = summary.requests, e.status
  end
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "BENCH_RESULT checked_each=%d requests=%d responses=%d non200=%d seconds=%.3f rps=%.1f " ..
    "p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.1f " ..
    "err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d bytes=%d\n",
    check_each and 1 or 0, summary.requests, total, bad, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    latency.mean, e.connect, e.read, e.write, e.status, e.timeout, summary.bytes))
  if sample ~= "" then
    io.write("BENCH_FIRST_NON200 " .. string.gsub(sample, "\n", " ") .. "\n")
  end
end
