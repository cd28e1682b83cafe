-- wrk script: POST /v1/otp with a fresh valid code per request (unique across threads), as the
-- HIS client whose API key is in $HIS_KEY.
-- Codes come from a counter written in base 25 over the alphabet, plus the check character.
local alphabet = "AEFHIJKLQRSUWXYZ123456789"
local odd = { ["1"]=0, ["2"]=5, ["3"]=7, ["4"]=9, ["5"]=13, ["6"]=15, ["7"]=17, ["8"]=19, ["9"]=21,
  A=1, E=9, F=13, H=17, I=19, J=21, K=2, L=4, Q=6, R=8, S=12, U=16, W=22, X=25, Y=24, Z=23 }
local even = { ["1"]=1, ["2"]=2, ["3"]=3, ["4"]=4, ["5"]=5, ["6"]=6, ["7"]=7, ["8"]=8, ["9"]=9,
  A=0, E=4, F=5, H=7, I=8, J=9, K=10, L=11, Q=16, R=17, S=18, U=20, W=22, X=23, Y=24, Z=25 }
local threads = {}
local counter = 0
local me = 0
local day = os.date("!%Y-%m-%d")
local key = os.getenv("HIS_KEY") or ""

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  -- Start each run at a random point so repeated runs on one store stay unique.
  counter = math.floor((os.time() % 100000) * 1000000)
  me = tonumber(wrk.thread:get("id")) or 0
end

local function code(n)
  local chars = {}
  for i = 1, 9 do
    local r = n % 25
    n = math.floor(n / 25)
    chars[i] = alphabet:sub(r + 1, r + 1)
  end
  local sum = 0
  for i = 1, 9 do
    if i % 2 == 1 then sum = sum + odd[chars[i]] else sum = sum + even[chars[i]] end
  end
  local check = sum % 25
  return table.concat(chars) .. alphabet:sub(check + 1, check + 1)
end

request = function()
  counter = counter + 1
  local body = '{"otp":"' .. code(counter * 16 + me) .. '","symptoms_started_on":"' .. day .. '"}'
  return wrk.format("POST", "/v1/otp",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key }, body)
end

done = function(summary, latency, requests)
  local other = summary.errors.status
  io.write(string.format("non-2xx/3xx: %d, socket errors: connect %d read %d write %d timeout %d\n", other,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end
