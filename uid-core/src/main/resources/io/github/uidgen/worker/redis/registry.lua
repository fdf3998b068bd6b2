-- The uid worker-ID registry of one namespace: claim, renew and release, each atomic, on the Redis server's clock.
-- KEYS: 1 leases (zset worker -> lease expiry ms, 0 once released), 2 tokens (hash worker -> token of the
--       current claim), 3 holders (hash worker -> last instance), 4 instances (hash instance -> worker),
--       5 marks (hash worker -> high-water mark ms), 6 generation (string: ms before which no claim may
--       succeed), 7 server (string: '<run_id> <cluster node ID or -> <replication ID>' of the Redis process that
--       last wrote the registry; a run_id alone when written by hand), 8 claims (hash: the claim history, see
--       below), 9 heartbeats (hash worker -> heartbeat ms its last claim declared, until released)
-- ARGV: 1 operation, then
--   claim:   2 instance ID, 3 token, 4 max worker ID, 5 lease ms, 6 registry loss margin ms, 7 max mark lead ms,
--            8 latest mark ms or '' (a further worker ID whose mark is no later, for a clock that stepped back),
--            9 'trusted' or 'wait' (the claimant waits the margin before it issues: the lease covers that too),
--            10 'allow-evicting' to claim although Redis may evict keys without an expiry, else '',
--            11 host name, 12 how many claims of the worker ID to keep in its history, 13 the claimant's heartbeat ms
--            -> {'wait', floor, now, why}
--            | {'ok', worker, mark or '', floor, now, token, maxmemory policy, longest heartbeat ms}
--            | {'full', live, holder...} | {'evicting', maxmemory policy}
--            | {'none'} (no free worker ID with a mark no later than ARGV 8)
--            where the longest heartbeat is the longest any claim of a worker ID not released since declared, this
--            one's included: a claim's probation must last that long, or a holder renewing less often could not
--            object in time
--            where why is 'new' (no generation key), 'margin' (still inside the margin of an earlier event) or what
--            happened to the registry's Redis (see change below)
--   renew:   2 worker ID, 3 token, 4 mark ms or '' (a probe of a claim on probation: nothing recorded), 5 lease ms,
--            6 registry loss margin ms, 7 the mark this claim last recorded or '', 8 the lease expiry (ms, Redis clock)
--            this claim was last given, 9 instance ID, 10 host name, 11 how many claims of the worker ID to keep,
--            12 'unchecked' when the renewal need not read which Redis process serves the registry (see below)
--            -> {'ok', change or '', run_id, new expiry, stored mark or '', floor, re-established}
--            | {'wiped', now} | {'rewound', stored mark or '', run_id, last change, now}
--            | {'released', holder, run_id, last change, certain, now} | {'taken', holder, run_id, last change, certain, now}
--            where certain is '1' when the claim's own lease cannot have expired yet; a claim found lost although its
--            lease cannot have expired raises the stored mark to the higher of the one it last recorded (ARGV 7) and
--            the one it asks for (ARGV 4: past every ID it issued, also on its lease while Redis did not answer), so
--            that a newcomer that took the worker ID meanwhile, still on probation, starts after every ID this claim
--            may have issued. re-established is '' when the lease's record came through, else how the registry lost
--            it ('wiped', 'absent', 'rewound') when the renewal could prove nobody claimed the worker ID since, and
--            wrote the lease and its mark again (see below)
--            where change is what change() below returns, run_id this process's and last change the kind of change
--            that brought the registry to this process ('lost' when it was created here, '' when marked new by hand)
--   release: 2 worker ID, 3 token, 4 mark ms or '', 5 registry loss margin ms
--            -> {'released'} | {'not held'}
local function str(n) return string.format('%.0f', n) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local op = ARGV[1]

-- A renewal whose record checks out: extends the lease and raises the mark (not for a probe), given the mark and the
-- generation key as read; returns the renewal's reply, naming the process that last wrote the registry.
local function extend(worker, recorded, floor, what, server)
  local expiry = str(now + tonumber(ARGV[5]))
  redis.call('ZADD', KEYS[1], expiry, worker)
  local mark = recorded
  if ARGV[4] ~= '' and ((not recorded) or tonumber(recorded) < tonumber(ARGV[4])) then
    redis.call('HSET', KEYS[5], worker, ARGV[4])
    mark = ARGV[4]
  end
  return {'ok', what, server, expiry, mark or '', floor, ''}
end

-- What nearly every renewal finds, decided before the rest of the script is set up (which took as long again as the
-- renewal's own work): a process named as the registry's writer (this one, where here is given), the generation key
-- there, the claim's token in place, its mark no older than the one it last recorded, and a mark to record. Anything
-- else takes the whole way below, which reads the same keys again: nothing is written here before all of it holds.
-- Returns the reply, or nil.
local function quickRenewal(here)
  local written = redis.call('MGET', KEYS[7], KEYS[6])
  local stored, floor = written[1], written[2]
  if floor and stored and ((not here) or string.sub(stored, 1, #here + 1) == here .. ' ')
      and redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[3] then
    local recorded = redis.call('HGET', KEYS[5], ARGV[2])
    if ARGV[7] == '' or (recorded and tonumber(recorded) >= tonumber(ARGV[7])) then
      return extend(ARGV[2], recorded, floor, '', string.match(stored, '^%S*'))
    end
  end
  return nil
end

-- Which process serves the registry is all a renewal's INFO is for, and reading it was a fifth of what a renewal
-- cost Redis. A holder's own record tells it all it must know, so most renewals ('unchecked') skip it: a registry that
-- came to another process (a restart, a failover, a moved slot) is told by the next claim or release, which read it
-- every time and make newcomers wait the margin before they take anything, and by the holder's next checked renewal,
-- which comes within seconds and after any renewal that failed (a restart or a failover breaks the connection).
local quick = op == 'renew' and ARGV[4] ~= ''
if quick and ARGV[12] == 'unchecked' then
  local reply = quickRenewal(nil)
  if reply then return reply end
  quick = false
end

-- What identifies the Redis process, read at every call but an unchecked renewal to tell a restart, a failover or a
-- moved slot; INFO is the only source of run_id. One INFO of two sections (Redis 7 takes several, an older Redis only
-- one), its fields found by a plain search for their line: patterns tried at every position of INFO's kilobyte of
-- text took a quarter of a renewal's time in Redis. CLUSTER MYID only on a Cluster node (or where INFO does not
-- say): elsewhere it only raises an error.
local info = redis.pcall('INFO', 'server', 'replication')
if type(info) ~= 'string' then info = redis.call('INFO', 'server') .. redis.call('INFO', 'replication') end
local function field(line)
  local at = string.find(info, line, 1, true)
  return at and string.match(info, '^[%w]+', at + #line)
end
local server = field('\nrun_id:')
local replid = field('\nmaster_replid:') or '-'
local previousReplid = field('\nmaster_replid2:') or '-'
if string.match(previousReplid, '^0+$') then previousReplid = '-' end
local node = '-'
local mode = field('\nredis_mode:')
if mode == 'cluster' or not mode then
  local myid = redis.pcall('CLUSTER', 'MYID')
  if type(myid) == 'string' then node = myid end
end
local here = server .. ' ' .. node .. ' ' .. replid
if quick then
  local reply = quickRenewal(here)
  if reply then return reply end
end

local function raiseFloorTo(at)
  local floor = tonumber(redis.call('GET', KEYS[6]) or '0')
  if floor < at then redis.call('SET', KEYS[6], str(at)) end
end

local function raiseFloor(margin)
  raiseFloorTo(now + tonumber(margin))
end

-- When this process started, by its own clock, at the latest it can have: uptime is the current second less the second
-- it started in, which overstates the time it has run by up to a second, so a second is added back. A holder of
-- a registry this process did not keep renewed last with the process before, so it issues nothing later than its last
-- renewal there plus its lease, which the margin covers: at most until this start plus the margin. Not so for a
-- process that was promoted from a replica (it was running while the old master took writes), hence nil then.
local uptime = tonumber(field('\nuptime_in_seconds:') or '')
local startedAt = (uptime and previousReplid == '-') and math.min(now, now - uptime * 1000 + 1000) or nil

-- What happened to the registry since it was last written, when another Redis process wrote it: its slot moved to
-- another Cluster master, Redis failed over to a replica, or was restarted. Its data may be intact or may have lost
-- the last writes or gone back in time; nobody can tell from here. Holders find out for themselves, as each checks
-- its own record at its next renewal, and carry on if it is intact. Newcomers cannot, so nobody claims until the
-- margin has passed and whatever a holder whose claim was lost may have issued lies in the past. A registry that
-- names no process at all (a snapshot taken before the first claim) is treated the same way.
-- The server key keeps, after this process, the kind of change that brought the registry to it.
-- Returns nil when this process wrote the registry last, else '<kind> <run_id before> <node before> <run_id now>
-- <node now>', kind being 'moved', 'failover', 'restarted' or 'unnamed'.
local stored = redis.call('GET', KEYS[7])
local wasRun, wasNode, wasReplid, lastKind = '', '', '', ''
if stored and string.sub(stored, 1, #here + 1) == here .. ' ' then
  -- What nearly every call finds, read without taking the whole value apart.
  wasRun, wasNode, wasReplid, lastKind = server, node, replid, string.match(stored, '^%S*', #here + 2)
elseif stored then
  wasRun, wasNode, wasReplid, lastKind = string.match(stored .. '   ', '^(%S*)%s*(%S*)%s*(%S*)%s*(%S*)')
end

local function change(margin)
  if stored and wasRun == server then
    if wasNode ~= node or wasReplid ~= replid then redis.call('SET', KEYS[7], here .. ' ' .. lastKind) end
    return nil
  end
  local kind
  if not stored then kind = 'unnamed'
  elseif wasReplid ~= '' and wasReplid ~= '-' and wasReplid == previousReplid then kind = 'failover'
  elseif wasNode ~= '' and wasNode ~= '-' and wasNode ~= node then kind = 'moved'
  else kind = 'restarted' end
  local what = kind .. ' ' .. (wasRun ~= '' and wasRun or '-') .. ' ' .. (wasNode ~= '' and wasNode or '-') .. ' '
      .. server .. ' ' .. node
  redis.call('SET', KEYS[7], here .. ' ' .. kind)
  stored, wasRun, wasNode, wasReplid, lastKind = here, server, node, replid, kind
  if startedAt and (kind == 'restarted' or kind == 'unnamed') then
    -- Whatever the previous process lost, its holders issue nothing past this process's start plus the margin.
    raiseFloorTo(startedAt + tonumber(margin))
  else
    raiseFloor(margin)
  end
  return what
end

-- The claim history: '<worker>' -> the number of the worker's newest claim, '<worker>:<n>' -> claim n as JSON
-- {i = instance, h = host, f = from ms, t = to ms or '', m = the mark it found or '', e = 'open', 'released' or
-- 'expired'}, all strings. Written in the same script as the claim, renewal probe and release it records, so it
-- cannot disagree with them; numbered so that a claim writes and prunes in O(1) with the hash's name alone in KEYS.
-- A record that does not decode (written by hand) is passed over rather than failing the claim.
local function newestClaim(worker)
  local n = redis.call('HGET', KEYS[8], worker)
  local record = n and redis.call('HGET', KEYS[8], worker .. ':' .. n)
  if not record then return nil end
  local ok, claim = pcall(cjson.decode, record)
  if ok and type(claim) == 'table' then return n, claim end
  return nil
end

local function rewriteClaim(worker, n, claim)
  redis.call('HSET', KEYS[8], worker .. ':' .. n, cjson.encode(claim))
end

local function closeClaim(worker, ending, to)
  local n, claim = newestClaim(worker)
  if claim and claim.e == 'open' then
    claim.e, claim.t = ending, to
    rewriteClaim(worker, n, claim)
  end
end

local function raise(worker, mark)
  local current = redis.call('HGET', KEYS[5], worker)
  if (not current) or tonumber(current) < tonumber(mark) then
    redis.call('HSET', KEYS[5], worker, mark)
  end
end

-- Opens a claim in the worker's history (with the mark it starts after) and prunes the oldest beyond the number kept.
local function openClaim(worker, instance, host, found, keep)
  local n = (tonumber(redis.call('HGET', KEYS[8], worker) or '') or 0) + 1
  redis.call('HSET', KEYS[8], worker, str(n))
  redis.call('HSET', KEYS[8], worker .. ':' .. str(n),
      cjson.encode({i = instance, h = host, f = str(now), t = '', m = found and str(found) or '', e = 'open'}))
  local old = n - keep
  while old > 0 and redis.call('HDEL', KEYS[8], worker .. ':' .. str(old)) == 1 do old = old - 1 end
end

-- A renewal checks the claim's own record: its token still in place, and its mark no older than the one this claim
-- last recorded. Both hold after a restart with every write kept, a failover to a replica that had them, a slot
-- moved: the lease carries on. Otherwise the registry lost or rewound this lease. When the claimant knows its lease
-- cannot have expired, the registry provably went back: newcomers wait the margin, as other claims may be gone too.
-- A lease that cannot have expired was nobody else's to take, so where the registry shows that nobody claimed the
-- worker ID since it lost the lease, the renewal writes the lease and its mark again and the holder carries on
-- (re-established): the registry has no generation key (every claim writes one), or the worker ID is absent from it
-- (every claim leaves it in the leases), or it still carries this claim's token with an older mark. Anything else
-- (another token, a released worker ID) may be a newcomer's doing, and the lease is lost. A probe (no mark) never
-- re-establishes: its claim is given back instead.
if op == 'renew' then
  local worker, token, margin, confirmed = ARGV[2], ARGV[3], ARGV[6], ARGV[7]
  local certain = now < tonumber(ARGV[8])
  local probe = ARGV[4] == ''
  local asked = confirmed
  if (not probe) and (confirmed == '' or tonumber(ARGV[4]) > tonumber(confirmed)) then asked = ARGV[4] end
  local function reestablish(how, what)
    redis.call('ZADD', KEYS[1], str(now + tonumber(ARGV[5])), worker)
    redis.call('HSET', KEYS[2], worker, token)
    redis.call('HSET', KEYS[3], worker, ARGV[9])
    redis.call('HSET', KEYS[4], ARGV[9], worker)
    if asked ~= '' then raise(worker, asked) end
    if how ~= 'rewound' then
      openClaim(worker, ARGV[9], ARGV[10] or '', tonumber(confirmed ~= '' and confirmed or ''),
          tonumber(ARGV[11] or '') or 256)
    end
    return {'ok', what, server, str(now + tonumber(ARGV[5])), redis.call('HGET', KEYS[5], worker) or '',
        redis.call('GET', KEYS[6]), how}
  end
  local floor = redis.call('GET', KEYS[6])
  if not floor then
    if probe or not certain then return {'wiped', str(now)} end
    -- Nobody has claimed here since the loss: newcomers wait the margin from now, as other holders' leases are gone.
    redis.call('SET', KEYS[6], str(now + tonumber(margin)))
    redis.call('SET', KEYS[7], here .. ' lost')
    stored, wasRun, wasNode, wasReplid, lastKind = here, server, node, replid, 'lost'
    return reestablish('wiped', '')
  end
  local what = change(margin)
  if what then floor = redis.call('GET', KEYS[6]) else what = '' end
  local held = redis.call('HGET', KEYS[2], worker)
  if held ~= token then
    if certain then
      raiseFloor(margin)
      if (not held) and (not probe) and not redis.call('ZSCORE', KEYS[1], worker) then
        return reestablish('absent', what)
      end
      if asked ~= '' then raise(worker, asked) end
    end
    local holder = redis.call('HGET', KEYS[3], worker) or ''
    return {(held and 'taken' or 'released'), holder, server, lastKind, certain and '1' or '0', str(now)}
  end
  local recorded = redis.call('HGET', KEYS[5], worker)
  if confirmed ~= '' and ((not recorded) or tonumber(recorded) < tonumber(confirmed)) then
    raiseFloor(margin)
    if certain and not probe then return reestablish('rewound', what) end
    return {'rewound', recorded or '', server, lastKind, str(now)}
  end
  -- The stored mark and the floor as read above, as nothing since wrote them.
  local reply = extend(worker, recorded, floor, what, server)
  if probe then
    -- The probe at the end of a claim's probation: the claim starts after a mark a lost holder raised meanwhile,
    -- so its record says so too.
    local n, claim = newestClaim(worker)
    local raised = tonumber(recorded or '')
    local found = claim and tonumber(tostring(claim.m or ''))
    if claim and claim.e == 'open' and raised and ((not found) or found < raised) then
      claim.m = str(raised)
      rewriteClaim(worker, n, claim)
    end
  end
  return reply
end

if op == 'release' then
  local worker, token = ARGV[2], ARGV[3]
  change(ARGV[5])
  if redis.call('HGET', KEYS[2], worker) ~= token then return {'not held'} end
  redis.call('HDEL', KEYS[2], worker)
  redis.call('HDEL', KEYS[9], worker)
  redis.call('ZADD', KEYS[1], 0, worker)
  if ARGV[4] ~= '' then raise(worker, ARGV[4]) end
  closeClaim(worker, 'released', str(now))
  return {'released'}
end

-- claim
local instance, token = ARGV[2], ARGV[3] .. '@' .. server
local max, lease, margin, lead = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local latest = tonumber(ARGV[8] or '')
if ARGV[9] == 'wait' then lease = lease + margin end

-- An allkeys-* policy may evict the registry's keys, none of which expires, with the effect of a restore. Read from
-- INFO (scripts may not call CONFIG) on the very server that holds the registry.
local policy = string.match(redis.call('INFO', 'memory'), 'maxmemory_policy:([%w%-]+)') or ''
if string.find(policy, '^allkeys%-') and ARGV[10] ~= 'allow-evicting' then return {'evicting', policy} end

-- No generation marker: the registry is new, or Redis lost it with every mark in it, and nobody can tell which. A
-- holder of a registry that this process lost issues nothing past this process's start plus the margin (see
-- startedAt), so claims wait until then: on a process that has run that long already, not at all. What that leaves
-- is a registry flushed out of a process that kept running: holders that renew find that out within a probation and
-- make claims wait the margin, and a claim on probation meanwhile sees it and is given back (ClaimProbation).
local floor = redis.call('GET', KEYS[6])
if not floor then
  floor = startedAt and (startedAt + margin) or (now + margin)
  if floor < now then floor = now end
  redis.call('SET', KEYS[6], str(floor))
  -- Holders confirmed by an earlier process learn from 'lost' that the registry was created anew here.
  redis.call('SET', KEYS[7], here .. ' lost')
  stored, wasRun, wasNode, wasReplid, lastKind = here, server, node, replid, 'lost'
  if floor > now then return {'wait', str(floor), str(now), 'new'} end
end
local what = change(margin)
if what and tonumber(redis.call('GET', KEYS[6])) > now then
  return {'wait', redis.call('GET', KEYS[6]), str(now), what}
end
floor = redis.call('GET', KEYS[6])
floor = tonumber(floor)
if now < floor then
  return {'wait', str(floor), str(now), 'margin', lastKind}
end

-- The mark a claim of a free worker ID starts after: the stored one, and for a lease that ran out without a release
-- (its token still there) at least the lease's expiry, as its holder may have issued on its lease up to then while
-- Redis did not answer it.
local function startMark(id)
  local mark = tonumber(redis.call('HGET', KEYS[5], id) or '')
  if redis.call('HEXISTS', KEYS[2], id) == 1 then
    local expiry = tonumber(redis.call('ZSCORE', KEYS[1], id) or '')
    if expiry and expiry > 0 and ((not mark) or mark < expiry) then mark = expiry end
  end
  return mark
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
  local mark = startMark(id)
  if latest then return (not mark) or mark <= latest end
  return (not mark) or mark <= now + lead
end

-- Records the claim in the worker's history: closes the previous claim (its lease ran out, or a version without a
-- history released it), opens this one with the mark the claimant starts after (the end of the margin when it must
-- wait it, as the claimant does), and prunes the oldest beyond the number to keep.
local host, keep = ARGV[11] or '', tonumber(ARGV[12] or '') or 256
local function recordClaim(id, mark)
  local expiry = redis.call('ZSCORE', KEYS[1], id)
  if redis.call('HEXISTS', KEYS[2], id) == 1 and expiry then
    closeClaim(id, 'expired', str(tonumber(expiry)))
  else
    closeClaim(id, 'released', str(now))
  end
  local found = tonumber(mark or '')
  local from = nil
  if ARGV[9] == 'wait' then from = now + margin
  elseif floor > now - margin then from = floor end
  if from and ((not found) or found < from) then found = from end
  openClaim(id, instance, host, found, keep)
end

local function take(id)
  local mark = startMark(id)
  recordClaim(id, mark)
  redis.call('ZADD', KEYS[1], str(now + lease), id)
  redis.call('HSET', KEYS[2], id, token)
  local previous = redis.call('HGET', KEYS[3], id)
  if previous and previous ~= instance and redis.call('HGET', KEYS[4], previous) == id then
    redis.call('HDEL', KEYS[4], previous)
  end
  redis.call('HSET', KEYS[3], id, instance)
  redis.call('HSET', KEYS[4], instance, id)
  -- Read before this claim's own heartbeat replaces its worker ID's: the holder it may displace unawares (a registry
  -- written back into Redis) declared that one.
  local longest = tonumber(ARGV[13] or '') or 0
  for _, heartbeat in ipairs(redis.call('HVALS', KEYS[9])) do
    local ms = tonumber(heartbeat) or 0
    if ms > longest then longest = ms end
  end
  redis.call('HSET', KEYS[9], id, ARGV[13] or '0')
  return {'ok', id, mark and str(mark) or '', str(floor), str(now), token, policy, str(longest)}
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
    local mark = startMark(id) or 0
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
