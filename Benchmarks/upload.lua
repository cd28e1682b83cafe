-- wrk script: POST /v1/ingestion/upload of 14 daily keys, each with its own authorised code.
-- TOKENS (environment) names a file of bearer tokens from `tracedesk bench seed`; with THREADS
-- equal to wrk's -t, thread i of n takes lines i, i+n, i+2n… so no token is used twice.
-- (wrk runs each thread's init before the next thread's setup, so n cannot come from setup.) PADDING adds that many padding
-- characters (the apps pad every upload to 110 000 bytes).
local threads = {}
local tokens = {}
local next_token = 1
local body

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  local n = tonumber(os.getenv("THREADS") or "1")
  local me = tonumber(wrk.thread:get("id")) or 0
  local i = 0
  for line in io.lines(os.getenv("TOKENS")) do
    if i % n == me then table.insert(tokens, line) end
    i = i + 1
  end
  local now = os.time()
  local today = math.floor(now / 86400) * 144
  local keys = {}
  for k = 0, 13 do
    -- 16 bytes, base64: a fixed pattern per key index (keys may repeat across uploads).
    local b64 = "AAAAAAAAAAAAAAAAAAAA" .. string.char(65 + k) .. "A=="
    keys[#keys + 1] = string.format('{"key_data":"%s","rolling_start_number":%d,"rolling_period":144}',
      b64, today - (13 - k) * 144)
  end
  local padding = string.rep("0", tonumber(os.getenv("PADDING") or "0"))
  body = '{"teks":[' .. table.concat(keys, ",") .. '],"province":"RM","padding":"' .. padding ..
    '","exposure_detection_summaries":[]}'
end

request = function()
  local token = tokens[next_token]
  if token == nil then
    -- Out of tokens: fall back to the last one (answered 401, counted as non-2xx).
    token = tokens[#tokens]
  end
  next_token = next_token + 1
  return wrk.format("POST", "/v1/ingestion/upload", {
    ["Content-Type"] = "application/json; charset=utf-8",
    ["Authorization"] = "Bearer " .. token,
    ["Immuni-Dummy-Data"] = "0",
    ["Immuni-Client-Clock"] = tostring(os.time()),
  }, body)
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx/3xx: %d, socket errors: connect %d read %d write %d timeout %d\n",
    summary.errors.status, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end
