-- Claims a worker ID for an instance, atomically, using the Redis server's clock for leases.
-- KEYS: 1 leases (zset worker -> lease expiry ms, 0 once released), 2 tokens (hash worker -> token of the
--       current claim), 3 holders (hash worker -> last instance), 4 instances (hash instance -> worker),
--       5 marks (hash worker -> high-water mark ms), 6 generation (string: ms before which the registry
--       is not trusted)
-- ARGV: 1 instance ID, 2 token, 3 max worker ID, 4 lease ms, 5 registry loss margin ms, 6 max mark lead ms
-- Returns {'wait', floor, now} | {'ok', worker, mark or '', floor, now} | {'full', live leases, holder...}
local function str(n) return string.format('%.0f', n) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local instance, token = ARGV[1], ARGV[2]
local max, lease, lead = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[6])

-- No generation marker: the registry is new, or Redis lost it with every mark in it. Nobody may claim
-- until the margin has passed, so that whatever a previous holder may have issued lies in the past.
local floor = redis.call('GET', KEYS[6])
if not floor then
  floor = now + tonumber(ARGV[5])
  redis.call('SET', KEYS[6], str(floor))
  return {'wait', str(floor), str(now)}
end
floor = tonumber(floor)
if now < floor then
  return {'wait', str(floor), str(now)}
end

local function free(id)
  if redis.call('HEXISTS', KEYS[2], id) == 0 then return true end
  local expires = redis.call('ZSCORE', KEYS[1], id)
  return (not expires) or tonumber(expires) < now
end

-- A mark further ahead of the clock than the claimant may wait for was left by a host whose clock ran fast:
-- handing that worker ID out would make a correct host refuse to start, so it comes last.
local function sane(id)
  local mark = redis.call('HGET', KEYS[5], id)
  return (not mark) or tonumber(mark) <= now + lead
end

local function take(id)
  redis.call('ZADD', KEYS[1], str(now + lease), id)
  redis.call('HSET', KEYS[2], id, token)
  local previous = redis.call('HGET', KEYS[3], id)
  if previous and previous ~= instance and redis.call('HGET', KEYS[4], previous) == id then
    redis.call('HDEL', KEYS[4], previous)
  end
  redis.call('HSET', KEYS[3], id, instance)
  redis.call('HSET', KEYS[4], instance, id)
  local mark = redis.call('HGET', KEYS[5], id)
  return {'ok', id, mark or '', str(floor), str(now)}
end

-- 1. This instance's previous worker ID, if nobody holds it.
local own = redis.call('HGET', KEYS[4], instance)
if own and tonumber(own) <= max and redis.call('HGET', KEYS[3], own) == instance and free(own) and sane(own) then
  return take(own)
end

-- 2. The lowest released or expired worker ID.
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. str(now))
local lowest = nil
for _, id in ipairs(expired) do
  local n = tonumber(id)
  if n <= max and (lowest == nil or n < lowest) and free(id) and sane(id) then lowest = n end
end
if lowest then
  return take(str(lowest))
end

-- 3. The lowest worker ID never used. IDs are handed out lowest first, so usually that is the count.
local count = redis.call('ZCARD', KEYS[1])
local candidate = nil
if count <= max and not redis.call('ZSCORE', KEYS[1], str(count)) then
  candidate = count
else
  for i = 0, math.min(max, count) do
    if not redis.call('ZSCORE', KEYS[1], str(i)) then candidate = i break end
  end
end
if candidate then
  return take(str(candidate))
end

-- 4. Only fast-clock marks are left free: the nearest one, so the claimant waits least or says how far it is.
local nearest, nearestMark = nil, nil
for _, id in ipairs(expired) do
  local n = tonumber(id)
  if n <= max and free(id) then
    local mark = tonumber(redis.call('HGET', KEYS[5], id) or '0')
    if nearest == nil or mark < nearestMark or (mark == nearestMark and n < nearest) then
      nearest, nearestMark = n, mark
    end
  end
end
if nearest then
  return take(str(nearest))
end

-- Every worker ID up to max is leased: count the live leases and name some holders.
local reply = {'full', '0'}
local live = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], str(now), '+inf')) do
  if tonumber(id) <= max then
    live = live + 1
    if live <= 8 then table.insert(reply, redis.call('HGET', KEYS[3], id) or '') end
  end
end
reply[2] = str(live)
return reply
