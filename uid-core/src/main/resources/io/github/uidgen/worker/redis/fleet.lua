-- Reads the uid worker-ID registry of one namespace for operators; writes nothing. The work is capped, so that a
-- read never holds up the claims and renewals queued behind it for long.
-- KEYS: 1 leases, 2 tokens, 3 holders, 4 marks, 5 claims (as in registry.lua)
-- ARGV: 1 operation, then
--   read:    2 how many worker IDs to list at most
--            -> {'fleet', now, known, held, then per worker listed, lowest first: worker, state ('held', 'expired' or
--                'released'), instance or '', host or '', held since ms or '', lease expiry ms or '', mark or ''}
--   history: 2 worker ID, 3 how many claims to read at most
--            -> {'claims', then per claim, newest first: instance, host, from ms, to ms or '', mark found or '', end}
local function str(n) return string.format('%.0f', n) end

local function decode(record)
  if not record then return nil end
  local ok, claim = pcall(cjson.decode, record)
  if ok and type(claim) == 'table' then return claim end
  return nil
end

if ARGV[1] == 'history' then
  local worker, max = ARGV[2], tonumber(ARGV[3])
  local reply = {'claims'}
  local n = tonumber(redis.call('HGET', KEYS[5], worker) or '')
  local read = 0
  -- Claims are numbered without gaps from the oldest kept to the newest.
  while n and n > 0 and read < max do
    local claim = decode(redis.call('HGET', KEYS[5], worker .. ':' .. str(n)))
    if not claim then break end
    for _, field in ipairs({'i', 'h', 'f', 't', 'm', 'e'}) do
      table.insert(reply, tostring(claim[field] or ''))
    end
    read = read + 1
    n = n - 1
  end
  return reply
end

-- read. Worker IDs are handed out lowest first, so they lie close together from 0: looking them up one by one from 0
-- finds the lowest without sorting the whole set, and stops after at most PROBES of them.
local PROBES = 16384
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local known = redis.call('ZCARD', KEYS[1])
local held = redis.call('ZCOUNT', KEYS[1], str(now), '+inf')
local reply = {'fleet', str(now), str(known), str(held)}
local max = tonumber(ARGV[2])
local listed, id = 0, 0
while listed < max and listed < known and id < PROBES do
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
      host, since = tostring(claim.h or ''), tostring(claim.f or '')
    end
    if state ~= 'released' then
      lease = str(expiry)
    elseif claim and claim.i == instance and claim.e == 'released' then
      lease = tostring(claim.t or '')
    end
    local mark = redis.call('HGET', KEYS[4], worker) or ''
    for _, field in ipairs({worker, state, instance, host, since, lease, mark}) do
      table.insert(reply, field)
    end
  end
  id = id + 1
end
return reply
