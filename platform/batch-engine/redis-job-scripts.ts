/**
 * The Lua scripts behind RedisJobStore. Each one checks and writes in a single step, which is what
 * makes status moves compare-and-set and chunk recording exactly-once under concurrent workers.
 * Times are epoch ms sent by the caller. The scripts build no key names: every key comes in KEYS.
 */
import { defineScript, type CommandParser, type RedisArgument } from 'redis';

/**
 * A script node-redis runs by its SHA1, sending the body again when Redis has forgotten it (a
 * restart, SCRIPT FLUSH). Called as `client.<name>(keys, args)`: the key count goes with each call.
 */
function jobScript(body: string) {
  return defineScript({
    SCRIPT: body,
    parseCommand(parser: CommandParser, keys: readonly string[], args: readonly RedisArgument[]) {
      parser.push(String(keys.length));
      parser.pushKeys(keys as string[]);
      parser.push(...args);
    },
    transformReply: undefined as unknown as () => unknown,
  });
}

// Ends the job in KEYS[1]. Its items go at once; its other keys expire after the retention; and the
// ended stream gets the job's one entry, written together with the status so that no job is
// announced twice and none is missed.
// Scripts that include this are given the ending keys (BatchKeys.endingKeys):
// KEYS[1] job hash, KEYS[2] inputs hash, KEYS[3] results hash, KEYS[4] deliveries list, KEYS[5] ended stream,
// KEYS[6] the submissions-under-way index.
const FINISH_JOB = `
local function finishJob(status, now, retentionMs, endedMaxLength, failure)
  redis.call('HSET', KEYS[1], 'status', status, 'completedAt', now)
  if failure ~= '' then redis.call('HSET', KEYS[1], 'error', failure) end
  redis.call('DEL', KEYS[2])
  redis.call('ZREM', KEYS[6], redis.call('HGET', KEYS[1], 'id'))
  redis.call('PEXPIRE', KEYS[1], retentionMs)
  redis.call('PEXPIRE', KEYS[3], retentionMs)
  redis.call('PEXPIRE', KEYS[4], retentionMs)
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', endedMaxLength, '*', 'job', redis.call('HGET', KEYS[1], 'id'), 'status', status)
end
`;

// Stores a new queued job, indexes it under its organisation in creation order, and lists it as a
// submission under way (scored by the time items last arrived) until it is sealed or ends.
// KEYS: 1 job hash, 2 the organisation's job index, 3 the creation sequence counter, 4 the submissions index
// ARGV: 1 id, 2 organisation, 3 created at, 4 chunk size, 5 callback URL ('' for none), 6 type ('' for a portfolio), 7 file name ('' for none)
// Returns 1, or 0 when a job with this id exists already.
const CREATE_JOB = jobScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'organisation', ARGV[2], 'status', 'queued', 'createdAt', ARGV[3],
  'chunkSize', ARGV[4], 'total', 0, 'processed', 0, 'succeeded', 0, 'failed', 0, 'chunkCount', 0, 'sealed', 0)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'callbackUrl', ARGV[5]) end
if ARGV[6] ~= nil and ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'type', ARGV[6]) end
if ARGV[7] ~= nil and ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'fileName', ARGV[7]) end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
return 1
`);

// Stores the items of the job's next chunk.
// KEYS: 1 job hash, 2 inputs hash, 3 the submissions index
// ARGV: 1 chunk index, 2 encoded items, 3 item count, 4 now
// Returns 1 stored; 0 the job has ended (stop sending); -1 no such job; -2 not the next chunk; -3 sealed.
const APPEND_INPUT = jobScript(`
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return -1 end
if status ~= 'queued' and status ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'sealed') == '1' then return -3 end
if redis.call('HGET', KEYS[1], 'chunkCount') ~= ARGV[1] then return -2 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'chunkCount', 1)
redis.call('HINCRBY', KEYS[1], 'total', ARGV[3])
redis.call('ZADD', KEYS[3], 'XX', ARGV[4], redis.call('HGET', KEYS[1], 'id'))
return 1
`);

// No more chunks will come; completes the job if every chunk is recorded already (or there are none).
// KEYS: the ending keys. ARGV: 1 now, 2 retention ms, 3 ended stream max length
// Returns 2 sealed and completed by this call; 1 sealed; 0 the job has ended or does not exist.
const SEAL_JOB = jobScript(`${FINISH_JOB}
local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'queued' and status ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'sealed', 1)
redis.call('ZREM', KEYS[6], redis.call('HGET', KEYS[1], 'id'))
if redis.call('HLEN', KEYS[3]) < tonumber(redis.call('HGET', KEYS[1], 'chunkCount')) then return 1 end
if status == 'queued' then redis.call('HSET', KEYS[1], 'status', 'running', 'startedAt', ARGV[1]) end
finishJob('completed', ARGV[1], ARGV[2], ARGV[3], '')
return 2
`);

// Records a chunk's results once: HSETNX on the results hash is the chunk's done-marker, so a
// chunk run again after a crash writes and counts nothing. The counters move in the same step.
// KEYS: the ending keys
// ARGV: 1 chunk index, 2 encoded results, 3 succeeded, 4 failed, 5 now, 6 retention ms, 7 ended stream max length
// Returns {3} recorded, and it was the last chunk: the job is completed; {2} recorded;
//   {1} recorded before, nothing counted; {0, status} the job has ended, nothing recorded; {-1} no such job.
const RECORD_CHUNK = jobScript(`${FINISH_JOB}
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-1} end
if status ~= 'queued' and status ~= 'running' then return {0, status} end
if redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2]) == 0 then return {1} end
if status == 'queued' then redis.call('HSET', KEYS[1], 'status', 'running', 'startedAt', ARGV[5]) end
local succeeded = tonumber(ARGV[3])
local failed = tonumber(ARGV[4])
redis.call('HINCRBY', KEYS[1], 'processed', succeeded + failed)
redis.call('HINCRBY', KEYS[1], 'succeeded', succeeded)
redis.call('HINCRBY', KEYS[1], 'failed', failed)
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[1], 'sealed') == '1'
  and redis.call('HLEN', KEYS[3]) == tonumber(redis.call('HGET', KEYS[1], 'chunkCount')) then
  finishJob('completed', ARGV[5], ARGV[6], ARGV[7], '')
  return {3}
end
return {2}
`);

// Compare-and-set of the job's status.
// KEYS: the ending keys
// ARGV: 1 target status, 2 now, 3 retention ms, 4 ended stream max length, 5 error ('' for none),
//   6… the statuses the target may be reached from (job-status.ts)
// Returns {1, previous status} moved; {0, current status} refused; {-1} no such job.
const TRANSITION = jobScript(`${FINISH_JOB}
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-1} end
for i = 6, #ARGV do
  if ARGV[i] == status then
    if ARGV[1] == 'running' then
      redis.call('HSET', KEYS[1], 'status', 'running', 'startedAt', ARGV[2])
    else
      finishJob(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
    end
    return {1, status}
  end
end
return {0, status}
`);

// Appends a webhook delivery record; after the job has ended the list takes the job's remaining TTL.
// KEYS: 1 job hash, 2 deliveries list. ARGV: 1 the record, JSON
// Returns 1 appended; 0 no such job.
const APPEND_DELIVERY = jobScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
`);

/** The scripts a batch Redis client is created with (./redis-client.ts). */
export const BATCH_SCRIPTS = {
  createJob: CREATE_JOB,
  appendInput: APPEND_INPUT,
  sealJob: SEAL_JOB,
  recordChunk: RECORD_CHUNK,
  transitionJob: TRANSITION,
  appendDelivery: APPEND_DELIVERY,
};
