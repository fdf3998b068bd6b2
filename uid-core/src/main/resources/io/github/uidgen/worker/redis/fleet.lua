-- Reads the uid worker-ID registry of one namespace for operators; writes nothing. The work of each run is capped, so
-- that a read never holds up the claims and renewals queued behind it for long: a long list takes several runs.
-- KEYS: 1 leases, 2 tokens, 3 holders, 4 marks, 5 claims (as in registry.lua)
-- ARGV: 1 operation, then
--   read:    2 the worker ID to look at first, 3 how many known worker IDs lie below it, 4 how many to list at most
--            -> {'fleet', now, known, held, the worker ID to go on from or '' once every known one was found, then per
--                worker listed, lowest first: worker, state ('held', 'expired' or 'released'), instance or '',
--                host or '', held since ms or '', lease expiry ms or '' (a released one's: its release), mark or ''}
--   history: 2 worker ID, 3 the number of the claim to read first, '' for the newest
--            -> {'claims', the number to go on from or '' once the oldest kept was read, then per claim, newest
--                first: instance, host, from ms, to ms or '', mark found or '', end}
local function str(n) return string.format('%.0f', n) end

-- A time or mark as the reply gives it: digits, or '' when there is none (or a record written by hand has none).
local function num(value)
  local n = tonumber(tostring(value or ''))
  return n and str(n) or ''
end

local function decode(record)
  if not record then return nil end
  local ok, claim = pcall(cjson.decode, record)
  if ok and type(claim) == 'table' then return claim end
  return nil
end

-- At most this many worker IDs or claims per run.
local PAGE = 256

if ARGV[1] == 'history' then
  local worker = ARGV[2]
  local reply = {'claims', ''}
  local n = tonumber(ARGV[3]) or tonumber(redis.call('HGET', KEYS[5], worker) or '')
  local read = 0
  -- Claims are numbered without gaps from the oldest kept to the newest.
  while n and n > 0 do
    if read == PAGE then
      reply[2] = str(n)
      break
    end
    local claim = decode(redis.call('HGET', KEYS[5], worker .. ':' .. str(n)))
    if not claim then break end
    for _, field in ipairs({tostring(claim.i or ''), tostring(claim.h or ''), num(claim.f), num(claim.t), num(claim.m),
        tostring(claim.e or '')}) do
      table.insert(reply, field)
    end
    read = read + 1
    n = n - 1
  end
  return reply
end

-- read. Worker IDs are handed out lowest first, so they lie close together from 0: looking them up one by one finds
-- the lowest without sorting the whole set. One run lists at most PAGE of them and looks up at most PROBES.
local PROBES = 4096
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local known = redis.call('ZCARD', KEYS[1])
local held = redis.call('ZCOUNT', KEYS[1], str(now), '+inf')
local reply = {'fleet', str(now), str(known), str(held), ''}
local id, below, max = tonumber(ARGV[2]), tonumber(ARGV[3]), math.min(tonumber(ARGV[4]), PAGE)
local listed, last = 0, id + PROBES
while listed < max and below + listed < known and id < last do
  local worker = str(id)
  local expiry = redis.call('ZSCORE', KEYS[1], worker)
  if expiry then
    listed = listed + 1
    expiry = tonumber(expiry)
    local state = 'released'
    if redis.call('HEXISTS', KEYS[2], worker) == 1 then
      state = (expiry >= now) and 'held' or 'expired'
    end
    local instance = redis.call('HGET', KEYS[3], worker) or ''
    local n = redis.call('HGET', KEYS[5], worker)
    local claim = n and decode(redis.call('HGET', KEYS[5], worker .. ':' .. n))
    local host, since, lease = '', '', ''
    if claim and claim.i == instance then
      host, since = tostring(claim.h or ''), num(claim.f)
    end
    if state ~= 'released' then
      lease = str(expiry)
    elseif claim and claim.i == instance and claim.e == 'released' then
      lease = num(claim.t)
    end
    local mark = redis.call('HGET', KEYS[4], worker) or ''
    for _, field in ipairs({worker, state, instance, host, since, lease, mark}) do
      table.insert(reply, field)
    end
  end
  id = id + 1
end
if below + listed < known then reply[5] = str(id) end
return reply
