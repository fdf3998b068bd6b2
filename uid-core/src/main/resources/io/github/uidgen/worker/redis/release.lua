-- Records a worker's final high-water mark and frees its lease, only while the claim still holds it.
-- KEYS: 1 leases, 2 tokens, 3 marks (as in claim.lua)
-- ARGV: 1 worker ID, 2 token, 3 mark ms or '' for none
-- Returns 1 when released, 0 when the claim no longer held the lease
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], 0, ARGV[1])
if ARGV[3] ~= '' then
  local current = redis.call('HGET', KEYS[3], ARGV[1])
  if (not current) or tonumber(current) < tonumber(ARGV[3]) then
    redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
  end
end
return 1
