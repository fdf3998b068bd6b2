-- The uid worker-ID registry of one namespace: claim, renew and release, each atomic, on the Redis server's clock.
-- KEYS: 1 leases (zset worker -> lease expiry ms, 0 once released), 2 tokens (hash worker -> token of the
--       current claim), 3 holders (hash worker -> last instance), 4 instances (hash instance -> worker),
--       5 marks (hash worker -> high-water mark ms), 6 generation (string: ms before which no claim may
--       succeed), 7 server (string: run_id of the Redis process that last wrote the registry)
-- ARGV: 1 operation, then
--   claim:   2 instance ID, 3 token, 4 max worker ID, 5 lease ms, 6 registry loss margin ms, 7 max mark lead ms,
--            8 latest mark ms or '' (a further worker ID whose mark is no later, for a clock that stepped back),
--            9 'trusted' or 'wait' (the claimant waits the margin before it issues: the lease covers that too)
--            -> {'wait', floor, now, why} | {'ok', worker, mark or '', floor, now, token} | {'full', live, holder...}
--            | {'none'} (no free worker ID with a mark no later than ARGV 8)
--            where why is 'new' (no generation key), 'rewound' (another Redis process wrote the registry), 'unnamed'
--            (no process is named as its writer) or 'margin' (still inside the margin of an earlier one)
--   renew:   2 worker ID, 3 token, 4 mark ms, 5 lease ms, 6 registry loss margin ms
--            -> {'ok'} | {'wiped'} | {'rewound', claimed on, now on} | {'released', holder} | {'taken', holder}
--   release: 2 worker ID, 3 token, 4 mark ms or '', 5 registry loss margin ms
--            -> {'released'} | {'not held'}
local function str(n) return string.format('%.0f', n) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local server = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
local op = ARGV[1]

-- A registry last written by another Redis process (this one restarted, perhaps from an older snapshot, or a
-- replica took over, perhaps lagging) may have gone back in time: its leases, tokens and marks may be older than
-- what holders were told. Trust none of it: end every lease, and let nobody claim until the margin has passed,
-- so whatever a holder may have issued meanwhile lies in the past. A registry that names no process at all was not
-- written by a claim of this process either (a snapshot taken before the first claim, say), and is not trusted.
local function trusted(margin)
  local stored = redis.call('GET', KEYS[7])
  if stored == server then return true end
  redis.call('SET', KEYS[7], server)
  redis.call('DEL', KEYS[2])
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(0', '+inf')) do
    redis.call('ZADD', KEYS[1], 0, id)
  end
  redis.call('SET', KEYS[6], str(now + tonumber(margin)))
  return false
end

-- The token a claim hands out names the Redis process it was made on.
local function claimedOn(token) return string.match(token, '@(%w+)$') or '' end

local function raise(worker, mark)
  local current = redis.call('HGET', KEYS[5], worker)
  if (not current) or tonumber(current) < tonumber(mark) then
    redis.call('HSET', KEYS[5], worker, mark)
  end
end

if op == 'renew' then
  local worker, token = ARGV[2], ARGV[3]
  if redis.call('EXISTS', KEYS[6]) == 0 then return {'wiped'} end
  if not trusted(ARGV[6]) or claimedOn(token) ~= server then return {'rewound', claimedOn(token), server} end
  local held = redis.call('HGET', KEYS[2], worker)
  if held ~= token then
    local holder = redis.call('HGET', KEYS[3], worker) or ''
    if not held then return {'released', holder} end
    return {'taken', holder}
  end
  redis.call('ZADD', KEYS[1], str(now + tonumber(ARGV[5])), worker)
  raise(worker, ARGV[4])
  return {'ok'}
end

if op == 'release' then
  local worker, token = ARGV[2], ARGV[3]
  if not trusted(ARGV[5]) or redis.call('HGET', KEYS[2], worker) ~= token then return {'not held'} end
  redis.call('HDEL', KEYS[2], worker)
  redis.call('ZADD', KEYS[1], 0, worker)
  if ARGV[4] ~= '' then raise(worker, ARGV[4]) end
  return {'released'}
end

-- claim
local instance, token = ARGV[2], ARGV[3] .. '@' .. server
local max, lease, margin, lead = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local latest = tonumber(ARGV[8] or '')
if ARGV[9] == 'wait' then lease = lease + margin end

-- No generation marker: the registry is new, or Redis lost it with every mark in it. Nobody may claim until the
-- margin has passed, so that whatever a previous holder may have issued lies in the past.
local floor = redis.call('GET', KEYS[6])
if not floor then
  floor = now + margin
  redis.call('SET', KEYS[6], str(floor))
  redis.call('SET', KEYS[7], server)
  return {'wait', str(floor), str(now), 'new'}
end
local writer = redis.call('GET', KEYS[7])
if not trusted(margin) then
  return {'wait', redis.call('GET', KEYS[6]), str(now), writer and 'rewound' or 'unnamed'}
end
floor = tonumber(floor)
if now < floor then
  return {'wait', str(floor), str(now), 'margin'}
end

local function free(id)
  if redis.call('HEXISTS', KEYS[2], id) == 0 then return true end
  local expires = redis.call('ZSCORE', KEYS[1], id)
  return (not expires) or tonumber(expires) < now
end

-- A mark further ahead of the clock than the claimant may wait for was left by a host whose clock ran fast:
-- handing that worker ID out would make a correct host refuse to start, so it comes last.
-- A claim for a clock that stepped back takes only worker IDs whose mark lies no later than the bound it gives.
local function sane(id)
  local mark = redis.call('HGET', KEYS[5], id)
  if latest then return (not mark) or tonumber(mark) <= latest end
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
  return {'ok', id, mark or '', str(floor), str(now), token}
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

if latest then
  return {'none'}
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
