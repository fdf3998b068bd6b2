-- The layout a namespace's worker IDs are used with, in a key of its own (KEYS[1], a string without expiry): written
-- when the namespace has none, so that exactly one of two racing first starts writes it, else read, in one round trip.
-- ARGV: 1 'record', 2 the layout as RecordedLayout writes it. Returns {'recorded'} or {'found', the recorded layout}.
if redis.call('SET', KEYS[1], ARGV[2], 'NX') then
  return {'recorded'}
end
return {'found', redis.call('GET', KEYS[1])}
