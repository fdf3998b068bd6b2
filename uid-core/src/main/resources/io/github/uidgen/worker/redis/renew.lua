-- Records a worker's high-water mark and extends its lease, only while the claim still holds it; never
-- re-creates a lease that is gone.
-- KEYS: 1 leases, 2 tokens, 3 holders, 4 marks, 5 generation (as in claim.lua)
-- ARGV: 1 worker ID, 2 token, 3 mark ms, 4 lease ms
-- Returns {'ok'} | {'wiped'} | {'released', holder or ''} | {'taken', holder or ''}
local function str(n) return string.format('%.0f', n) end
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held ~= ARGV[2] then
  if redis.call('EXISTS', KEYS[5]) == 0 then return {'wiped'} end
  local holder = redis.call('HGET', KEYS[3], ARGV[1]) or ''
  if not held then return {'released', holder} end
  return {'taken', holder}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], str(now + tonumber(ARGV[4])), ARGV[1])
local current = redis.call('HGET', KEYS[4], ARGV[1])
if (not current) or tonumber(current) < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
end
return {'ok'}
