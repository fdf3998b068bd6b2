package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdOutOfRangeException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.support.LeaseTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Leases reusable worker IDs from Redis, through the application's Spring Data Redis connection factory
 * (standalone, Sentinel or Cluster alike).
 *
 * <p>Claim, renewal and release are each one run of a Lua script ({@code registry.lua}), so they are atomic. A claim
 * takes this instance's previous worker ID if nobody holds it, else the lowest released or expired one, else the lowest
 * never used, passing over free worker IDs whose mark a fast-clock host left far in the future unless nothing else is
 * free; when every ID up to the layout's maximum is leased it fails with {@link AllWorkerIdsLeasedException}. Lease
 * expiry is computed by the Redis server's clock ({@code TIME}), so instances whose clocks disagree still agree on who
 * holds what. Each worker's high-water mark is kept without expiry and only ever grows. A renewal only succeeds while
 * the claim's token is still in place: a holder whose lease was taken, or has vanished, gets
 * {@link WorkerLeaseLostException} and never re-creates it.
 *
 * <p>All keys share the hash tag {@code {<keyPrefix>:<namespace>}}, so one namespace lives on one Redis Cluster
 * slot and the script may touch all of them: {@code …:leases} (sorted set, worker ID by lease expiry),
 * {@code …:tokens}, {@code …:holders}, {@code …:instances}, {@code …:marks} (hashes), {@code …:generation} and
 * {@code …:server}.
 *
 * <p><strong>When Redis loses its data or goes back in time.</strong> An empty registry (a restart without
 * persistence, a flush, a failover to an empty replica) has lost every mark, and a registry restored from an older
 * snapshot (or served by a replica that lagged) has older leases, tokens and marks than its holders were told; either
 * would let a newcomer reuse a worker ID whose holder issued IDs ahead of the clock. A holder checks its own record at
 * every renewal: the claim's token still in place and a mark no older than the one it last recorded. When both hold,
 * the registry came through with its writes (a restart with an append-only file, a failover to a replica that had
 * them, a Cluster slot moved) and it carries on; otherwise it gets {@link WorkerLeaseLostException} saying what
 * happened, and never re-creates the lease. A newcomer cannot check anything, so two keys decide whether it may trust
 * the registry. {@code generation} is written with the first claim of a registry and never expires: a claim that
 * finds it missing knows the registry is new or wiped. {@code server} names the Redis process that last wrote the
 * registry ({@code run_id}, Cluster node ID, replication ID): the first script that runs on another process records
 * which it is and what happened (restarted, failed over, slot moved); a registry that names no process at all
 * (restored from a snapshot taken before its first claim) counts as written by another. In these cases, and when a
 * holder proves its own claim was lost although its lease cannot have expired, no claim in the namespace succeeds for
 * the next {@link Builder#registryLossMargin registry loss margin}, by the Redis clock, and the claimed worker's mark
 * is never earlier than the end of the margin; a holder whose claim was lost stops at its next renewal, with all its
 * IDs before the end of the margin. The margin must cover how far ahead of the clock any generator of the namespace
 * may have reserved IDs (the cached generator's {@code maxAhead} plus the mark reservation) plus the clock skew
 * between instances; the default, 15 s, covers the generators' defaults (10 s + 3 s) with 2 s to spare. The cost is a
 * wait of one margin at the very first start of a namespace and for starts after a loss, restart, failover or slot
 * move; setting the generation key by hand, with the server key naming the running process, skips the first wait
 * when you know the namespace is brand new.
 *
 * <p>A registry whose keys were written back into the same running process (a {@code RESTORE} of an older dump)
 * cannot be told from a genuine one by a newcomer; only the holder whose claim it undid can tell, at its next renewal.
 * So holders renew at least every 1.5 s, and a claim stands a probation of that interval plus a round trip (2 s by
 * default) before the generator may issue with it, in which such a holder stops and raises the worker's mark to the
 * one it recorded; the claim then starts after it. A holder cut off from Redis meanwhile is not covered unless another
 * holder notices; {@link Builder#registryTrust(RegistryTrust) RegistryTrust.NONE} makes every claim wait the margin,
 * which covers that as well.
 *
 * <p>The registry's keys have no expiry, so a Redis whose {@code maxmemory-policy} is {@code allkeys-*} may evict
 * them, with the effect of a restore: a claim on it is refused unless {@link Builder#allowEvictingPolicy(boolean)}.
 */
public final class RedisWorkerIdAssigner implements WorkerIdAssigner {

	/** Default key prefix. */
	public static final String DEFAULT_KEY_PREFIX = "uid";

	/** Default namespace. */
	public static final String DEFAULT_NAMESPACE = "default";

	/** Default lease duration. */
	public static final Duration DEFAULT_LEASE_DURATION = LeaseSettings.DEFAULT_LEASE_DURATION;

	/** Default wait after the registry was found new or wiped. */
	public static final Duration DEFAULT_REGISTRY_LOSS_MARGIN = Duration.ofSeconds(15);

	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	private static final Pattern KEY_PART = Pattern.compile("[^{}\\s]{1,100}");

	/**
	 * Holders renew at least this often, whatever their heartbeat and mark reservation, so that a claim on probation
	 * hears from them within {@link #probation}.
	 */
	static final Duration MAX_CHECK_INTERVAL = Duration.ofMillis(1_500);

	/** What a probation adds to the holders' renewal interval, for the renewal's round trip and scheduling delays. */
	static final Duration MAX_ROUND_TRIP_ALLOWANCE = Duration.ofMillis(500);

	/** A claim waits at most this many margins, in case the registry keeps being wiped. */
	private static final int MAX_WAITS = 5;

	private final RegistryScripts scripts;

	private final RegistryLayout layout;

	private final String keyPrefix;

	private final String namespace;

	private final LeaseSettings lease;

	private final Duration registryLossMargin;

	private final RegistryTrust registryTrust;

	private final boolean allowEvictingPolicy;

	private final String hashTag;

	/** How often holders renew: the heartbeat, at most {@link #MAX_CHECK_INTERVAL}. */
	private final Duration checkInterval;

	/** How long a trusted claim waits before its worker ID is handed to the generator; see {@link #onProbation}. */
	private final Duration probation;

	private final HeldLeases leases = new HeldLeases();

	/** The Redis process that answered this assigner's last renewal, so a change is logged once per assigner. */
	private volatile String lastServer;

	private RedisWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.keyPrefix = builder.keyPrefix;
		this.namespace = builder.namespace;
		this.lease = lease;
		this.registryLossMargin = builder.registryLossMargin;
		this.registryTrust = builder.registryTrust;
		this.allowEvictingPolicy = builder.allowEvictingPolicy;
		this.hashTag = "{" + this.keyPrefix + ":" + this.namespace + "}";
		this.checkInterval = (lease.heartbeatInterval().compareTo(MAX_CHECK_INTERVAL) < 0) ? lease.heartbeatInterval()
				: MAX_CHECK_INTERVAL;
		Duration allowance = this.checkInterval.dividedBy(2);
		this.probation = this.checkInterval
			.plus((allowance.compareTo(MAX_ROUND_TRIP_ALLOWANCE) < 0) ? allowance : MAX_ROUND_TRIP_ALLOWANCE);
		this.scripts = new RegistryScripts(builder.connectionFactory, this.hashTag);
		this.layout = new RegistryLayout(builder.connectionFactory, this.hashTag);
	}

	/**
	 * Starts building an assigner on a connection factory.
	 * @param connectionFactory the application's Redis connection factory
	 * @return a builder
	 */
	public static Builder builder(RedisConnectionFactory connectionFactory) {
		return new Builder(connectionFactory);
	}

	/** Records the layout in the namespace's {@code …:layout} key, or refuses another; see {@link RegistryLayout}. */
	@Override
	public void recordLayout(UidLayout layout) {
		this.layout.record(layout);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId) {
		return assign(maxWorkerId, LeaseSettings.DEFAULT_MAX_MARK_LEAD);
	}

	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		boolean waitEveryClaim = this.registryTrust == RegistryTrust.NONE;
		for (int waits = 0;; waits++) {
			List<String> reply = this.scripts.claim(this.lease.instanceId(), LeaseTokens.newToken(),
					Long.toString(maxWorkerId), Long.toString(claimLeaseMillis()),
					Long.toString(this.registryLossMargin.toMillis()), Long.toString(maxMarkLead.toMillis()), "",
					waitEveryClaim ? "wait" : "trusted", this.allowEvictingPolicy ? "allow-evicting" : "");
			switch (reply.get(0)) {
				case "ok" -> {
					if (waitEveryClaim) {
						return claimedUntrusted(reply);
					}
					WorkerAssignment confirmed = onProbation(reply, claimed(reply), maxMarkLead.toMillis(),
							Long.MAX_VALUE);
					if (confirmed != null) {
						return confirmed;
					}
					if (waits >= MAX_WAITS) {
						throw new WorkerAssignmentException("A claim in the uid worker registry " + this.hashTag
								+ " was given back after its probation " + (waits + 1) + " times in a row; is something "
								+ "rewriting the registry in Redis?");
					}
				}
				case "full" -> throw this.lease.allTaken(maxWorkerId, Long.parseLong(reply.get(1)),
						reply.subList(2, reply.size()), "Redis under " + this.hashTag);
				case "evicting" -> throw evicting(reply.get(1));
				case "wait" -> awaitRegistry(Long.parseLong(reply.get(1)), Long.parseLong(reply.get(2)), reply.get(3),
						(reply.size() > 4) ? reply.get(4) : "", waits);
				default -> throw new WorkerAssignmentException("Unexpected reply from the uid claim script: " + reply);
			}
		}
	}

	@Override
	public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		if (this.registryTrust == RegistryTrust.NONE) {
			// Every claim waits the margin, and starts after it: never behind the clock.
			return Optional.empty();
		}
		List<String> reply = this.scripts.claim(this.lease.instanceId(), LeaseTokens.newToken(),
				Long.toString(maxWorkerId), Long.toString(claimLeaseMillis()),
				Long.toString(this.registryLossMargin.toMillis()), "0", Long.toString(latestMarkMillis), "trusted",
				this.allowEvictingPolicy ? "allow-evicting" : "");
		if ("evicting".equals(reply.get(0))) {
			throw evicting(reply.get(1));
		}
		if (!"ok".equals(reply.get(0))) {
			// Nothing free with such a mark, or the registry is waiting out a loss: a claim now would have to wait.
			return Optional.empty();
		}
		WorkerAssignment assignment = onProbation(reply, claimed(reply), Long.MAX_VALUE, latestMarkMillis);
		if (assignment == null) {
			return Optional.empty();
		}
		if (assignment.hasMark() && assignment.highWaterMarkMillis() > latestMarkMillis) {
			// Shortly after a registry loss the mark is the end of the margin, which may lie later than the bound.
			release(assignment.workerId(), WorkerAssignment.NO_MARK);
			return Optional.empty();
		}
		return Optional.of(assignment);
	}

	private WorkerAssignmentException evicting(String policy) {
		return new WorkerAssignmentException("The Redis that holds the uid worker registry " + this.hashTag
				+ " may evict keys that have no expiry (maxmemory-policy " + policy + "), and none of the registry's "
				+ "keys expires: an evicted lease or mark lets a newcomer take a running instance's worker ID and "
				+ "repeat its IDs. Set maxmemory-policy to noeviction (or a volatile-* policy) on every Redis node that "
				+ "may hold the registry, give the registry a Redis of its own, or accept the risk with "
				+ "uid.worker.redis.allow-evicting-policy=true (builder: allowEvictingPolicy(true)).");
	}

	private WorkerAssignment claimed(List<String> reply) {
		long workerId = Long.parseLong(reply.get(1));
		if (reply.size() > 6 && reply.get(6).startsWith("allkeys-")) {
			logger.warn("uid worker registry {}: Redis may evict keys that have no expiry (maxmemory-policy {}), and "
					+ "an evicted lease or mark can make two instances issue the same IDs; accepted because "
					+ "allow-evicting-policy is on", this.hashTag, reply.get(6));
		}
		String token = reply.get(5);
		long mark = reply.get(2).isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(reply.get(2));
		long floor = Long.parseLong(reply.get(3));
		long redisNow = Long.parseLong(reply.get(4));
		long leaseMillis = this.lease.leaseDuration().toMillis()
				+ ((this.registryTrust == RegistryTrust.NONE) ? this.registryLossMargin.toMillis()
						: this.probation.toMillis());
		if (floor > redisNow - this.registryLossMargin.toMillis()) {
			// Shortly after a loss, start no earlier than the end of the margin even if this instance's clock
			// lags behind the Redis server's.
			mark = Math.max(mark, floor);
		}
		this.leases.claimed(workerId, token, redisNow + leaseMillis);
		WorkerAssignment assignment = new WorkerAssignment(workerId, mark);
		logger.info("uid worker ID {} leased from Redis {} for instance '{}' ({}, lease {})", workerId,
				this.hashTag, this.lease.instanceId(),
				assignment.hasMark() ? "mark " + Instant.ofEpochMilli(mark) : "no mark", this.lease.leaseDuration());
		return assignment;
	}

	/** How long a claim leases its worker ID for: the lease, and the probation a trusted claim waits before issue. */
	private long claimLeaseMillis() {
		// The script adds the margin itself to a claim that waits it.
		return this.lease.leaseDuration().toMillis()
				+ ((this.registryTrust == RegistryTrust.NONE) ? 0 : this.probation.toMillis());
	}

	/**
	 * Holds a trusted claim back for one renewal interval of the holders and a round trip before the generator may
	 * issue with it, then reads the worker's record again. A registry written back into the running Redis (a
	 * {@code RESTORE} of an older dump) may show a running holder's worker ID free; that holder renews within the
	 * interval, finds its claim gone although its lease cannot have expired, stops, raises the worker's mark to the one
	 * it recorded, and makes claims wait the registry-loss margin. So after the probation this claim starts after that
	 * mark; and when the margin was raised meanwhile but this worker's mark did not move (its holder, if any, did not
	 * answer: it may be cut off from Redis), the claim is given back and made again, which waits the margin.
	 * @param reply the claim script's reply
	 * @param claimed the assignment as claimed
	 * @param maxMarkLeadMillis how far ahead of the Redis clock the mark may lie for the generator to start on it
	 * @param latestMarkMillis the latest mark the worker ID may have (a claim for a clock that stepped back)
	 * @return the assignment to issue with, or {@code null} when the claim was given back and must be made again
	 */
	private WorkerAssignment onProbation(List<String> reply, WorkerAssignment claimed, long maxMarkLeadMillis,
			long latestMarkMillis) {
		long workerId = claimed.workerId();
		long markAtClaim = reply.get(2).isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(reply.get(2));
		long claimedAt = Long.parseLong(reply.get(4));
		try {
			Thread.sleep(this.probation.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			release(workerId, WorkerAssignment.NO_MARK);
			throw new WorkerAssignmentException("Interrupted while waiting to issue with uid worker ID " + workerId, ex);
		}
		HeldLeases.Held held = this.leases.require(workerId);
		List<String> probe;
		try {
			probe = this.scripts.renew(Long.toString(workerId), held.token(), "",
					Long.toString(this.lease.leaseDuration().toMillis()),
					Long.toString(this.registryLossMargin.toMillis()), "", Long.toString(held.expiresAt()));
		}
		catch (RuntimeException ex) {
			// Nobody issues with it yet: give it back, so that it need not expire first.
			try {
				release(workerId, WorkerAssignment.NO_MARK);
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		if (!"ok".equals(probe.get(0))) {
			this.leases.lost(workerId, held);
			logger.warn("uid worker ID {} was lost from the registry {} while its claim was on probation ({}): "
					+ "claiming again", workerId, this.hashTag, probe);
			return null;
		}
		long expiresAt = Long.parseLong(probe.get(3));
		this.leases.probed(workerId, held, expiresAt, probe.get(2));
		long redisNow = expiresAt - this.lease.leaseDuration().toMillis();
		long mark = probe.get(4).isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(probe.get(4));
		long floor = Long.parseLong(probe.get(5));
		boolean holderAnswered = mark != WorkerAssignment.NO_MARK && mark > markAtClaim;
		String giveBack = null;
		if (floor > claimedAt && !holderAnswered) {
			giveBack = "the registry was found lost or rewound meanwhile, and nobody raised this worker's mark";
		}
		else if (holderAnswered && (mark - redisNow > maxMarkLeadMillis || mark > latestMarkMillis)) {
			// Only a mark raised meanwhile: one the claim found far ahead (nothing else free) is waited for or refused
			// as at any claim.
			giveBack = "its previous holder found its claim undone and raised its mark to " + Instant.ofEpochMilli(mark)
					+ ", further ahead than this generator may start on";
		}
		if (giveBack != null) {
			logger.warn("uid worker ID {} is given back after its claim's probation: {}; claiming again", workerId,
					giveBack);
			release(workerId, WorkerAssignment.NO_MARK);
			return null;
		}
		if (holderAnswered) {
			logger.warn("uid worker ID {}: its previous holder, whose claim the registry {} no longer had, raised its "
					+ "mark to {} while this claim was on probation; issue starts after it", workerId, this.hashTag,
					Instant.ofEpochMilli(mark));
		}
		return new WorkerAssignment(workerId, Math.max(claimed.highWaterMarkMillis(), mark));
	}

	/**
	 * A claim from a registry that is not trusted however it looks ({@link RegistryTrust#NONE}): a holder whose claim
	 * was taken out of it may still issue with the worker ID, up to the mark it recorded before, which lies within the
	 * margin of now. Waits out the margin (the lease was claimed long enough to cover it), and starts after it.
	 */
	private WorkerAssignment claimedUntrusted(List<String> reply) {
		long redisNow = Long.parseLong(reply.get(4));
		long afterMargin = redisNow + this.registryLossMargin.toMillis();
		long startedNanos = System.nanoTime();
		WorkerAssignment assignment = claimed(reply);
		logger.info("uid worker ID {}: waiting the registry-loss margin ({} ms) before issuing with it, as the registry "
				+ "is not trusted at any claim (registry trust none)", assignment.workerId(),
				this.registryLossMargin.toMillis());
		try {
			long left;
			while ((left = this.registryLossMargin.toNanos() - (System.nanoTime() - startedNanos)) > 0) {
				Thread.sleep(Math.max(1, Duration.ofNanos(left).toMillis()));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			release(assignment.workerId(), WorkerAssignment.NO_MARK);
			throw new WorkerAssignmentException("Interrupted while waiting to issue with uid worker ID "
					+ assignment.workerId(), ex);
		}
		long mark = assignment.hasMark() ? Math.max(assignment.highWaterMarkMillis(), afterMargin) : afterMargin;
		return new WorkerAssignment(assignment.workerId(), mark);
	}

	private void awaitRegistry(long floorMillis, long nowMillis, String why, String lastChange, int waits) {
		if (waits >= MAX_WAITS) {
			throw new WorkerAssignmentException("The uid worker registry " + this.hashTag + " was found lost or "
					+ "rewound " + (waits + 1) + " times in a row; is something flushing or restarting Redis? Redis must "
					+ "keep the registry for worker IDs to be safe.");
		}
		long waitMillis = Math.max(1, floorMillis - nowMillis);
		String reason = switch (why) {
			case "new" -> "is new, or Redis lost its data (no generation key)";
			case "margin" -> "was found lost, rewound or served by another Redis process moments ago"
					+ (lastChange.isEmpty() ? "" : " (the last such event: " + RegistryChange.kindInWords(lastChange) + ")");
			default -> "cannot be vouched for: " + RegistryChange.parse(why).describe()
					+ ", and a registry written by another process may have lost writes or gone back in time";
		};
		logger.warn("uid worker registry {} {}: waiting {} ms before claiming, so that no worker ID is reused before its "
				+ "previous holder's IDs lie in the past", this.hashTag, reason, waitMillis);
		try {
			Thread.sleep(waitMillis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while waiting to claim a uid worker ID", ex);
		}
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		HeldLeases.Held held = this.leases.require(workerId);
		List<String> reply = this.scripts.renew(Long.toString(workerId), held.token(),
				Long.toString(highWaterMarkMillis), Long.toString(this.lease.leaseDuration().toMillis()),
				Long.toString(this.registryLossMargin.toMillis()),
				(held.recordedMark() != null) ? Long.toString(held.recordedMark()) : "",
				Long.toString(held.expiresAt()));
		String outcome = reply.get(0);
		if ("ok".equals(outcome)) {
			this.leases.renewed(workerId, held, highWaterMarkMillis, Long.parseLong(reply.get(3)), reply.get(2));
			noteServer(workerId, RegistryChange.parse(reply.get(1)), reply.get(2));
			return;
		}
		this.leases.lost(workerId, held);
		String what = "";
		if (reply.size() > 3 && !reply.get(2).equals(held.server()) && !reply.get(3).isEmpty()) {
			// Another process serves the registry since this lease was last confirmed: say how it came to be.
			what = " (" + new RegistryChange(reply.get(3), held.server(), "-", reply.get(2), "-").describe() + ")";
		}
		String detail = switch (outcome) {
			case "wiped" -> "Redis lost the worker registry " + this.hashTag + ": its generation key is gone, so its "
					+ "data was lost; the lease is not re-created, as it can no longer be proven";
			case "rewound" -> "the registry in Redis went back in time" + what + ": it holds an older record of this "
					+ "lease (mark " + mark(reply.get(1)) + ") than the one this instance recorded ("
					+ mark(Long.toString(held.recordedMark())) + "); the lease can no longer be proven";
			case "released", "taken" -> lostRecord(outcome, reply.get(1), held, "1".equals(reply.get(4)),
					Long.parseLong(reply.get(5)), what);
			default -> "unexpected reply from the uid renewal script: " + reply;
		};
		throw new WorkerLeaseLostException(workerId, detail);
	}

	/**
	 * Says what a renewal that found another token, or none, in place of its own tells: a lease that cannot have
	 * expired yet was lost from the registry (data lost or rewound), one that may have expired was taken.
	 */
	private String lostRecord(String outcome, String holder, HeldLeases.Held held, boolean certain, long redisNow,
			String what) {
		long left = held.expiresAt() - redisNow;
		String since = (left > 0) ? "it runs " + left + " ms more, by the Redis clock"
				: "it ran out " + (-left) + " ms ago, by the Redis clock";
		if (certain) {
			String shows = "released".equals(outcome) ? "shows the worker ID free"
					: "shows instance '" + holder + "' holding it";
			return "the registry in Redis lost or rewound data" + what + ": it " + shows + ", although this "
					+ "instance's lease cannot have expired (" + since + "); new claims in " + this.hashTag
					+ " wait the registry-loss margin";
		}
		if ("released".equals(outcome)) {
			return this.lease.instanceId().equals(holder) ? "it was released"
					: "its lease is gone from Redis (" + since + "; the registry lost data, or it was changed by hand)"
							+ what;
		}
		return "the lease expired (" + since + ") and instance '" + holder + "' holds it now" + what;
	}

	private static String mark(String millis) {
		return (millis == null || millis.isEmpty() || "null".equals(millis)) ? "none"
				: Instant.ofEpochMilli(Long.parseLong(millis)).toString();
	}

	/** Logs, once per assigner, that another Redis process serves the registry now and this lease came through. */
	private void noteServer(long workerId, RegistryChange change, String server) {
		String previous = this.lastServer;
		this.lastServer = server;
		if (change != null) {
			logger.warn("uid worker {}: {}; this lease's record in Redis is intact, so it carries on. New claims in {} "
					+ "wait the registry-loss margin ({} ms), as the registry's history cannot be vouched for",
					workerId, change.describe(), this.hashTag, this.registryLossMargin.toMillis());
		}
		else if (previous != null && !previous.equals(server)) {
			logger.info("uid worker {}: the registry {} is served by Redis process {} now (was {}); this lease's record "
					+ "is intact, so it carries on", workerId, this.hashTag, server, previous);
		}
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		HeldLeases.Held held = this.leases.release(workerId);
		if (held == null) {
			return;
		}
		String mark = (highWaterMarkMillis == WorkerAssignment.NO_MARK) ? "" : Long.toString(highWaterMarkMillis);
		List<String> reply = this.scripts.release(Long.toString(workerId), held.token(), mark,
				Long.toString(this.registryLossMargin.toMillis()));
		if ("released".equals(reply.get(0))) {
			logger.info("uid worker ID {} released in Redis {}", workerId, this.hashTag);
		}
		else {
			logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
		}
	}

	/**
	 * Returns the heartbeat interval, at most 1.5 s: a claim on probation must hear from every holder whose claim a
	 * registry written back into Redis undid, and a renewal is one short script call.
	 */
	@Override
	public Duration renewInterval() {
		return this.checkInterval;
	}

	/**
	 * Returns how long a claim waits, holding its worker ID, before the generator may issue with it: the holders'
	 * renewal interval and an allowance for its round trip (2 s with the defaults). Not with
	 * {@link RegistryTrust#NONE}, whose claims wait the registry-loss margin instead.
	 * @return the probation
	 */
	public Duration getClaimProbation() {
		return (this.registryTrust == RegistryTrust.NONE) ? Duration.ZERO : this.probation;
	}

	@Override
	public String name() {
		return "redis";
	}

	/**
	 * Returns the hash tag every key of this namespace starts with.
	 * @return {@code {<keyPrefix>:<namespace>}}
	 */
	public String getKeyTag() {
		return this.hashTag;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public Duration getLeaseDuration() {
		return this.lease.leaseDuration();
	}

	public Duration getHeartbeatInterval() {
		return this.lease.heartbeatInterval();
	}

	public Duration getRegistryLossMargin() {
		return this.registryLossMargin;
	}

	public RegistryTrust getRegistryTrust() {
		return this.registryTrust;
	}

	public boolean isAllowEvictingPolicy() {
		return this.allowEvictingPolicy;
	}

	public String getInstanceId() {
		return this.lease.instanceId();
	}

	@Override
	public String toString() {
		return "RedisWorkerIdAssigner[" + this.hashTag + ", instance '" + this.lease.instanceId() + "']";
	}

	/**
	 * Builds a {@link RedisWorkerIdAssigner}; settings left unset (or set to {@code null}) keep their defaults.
	 */
	public static final class Builder extends AbstractLeaseBuilder<Builder> {

		private final RedisConnectionFactory connectionFactory;

		private String keyPrefix = DEFAULT_KEY_PREFIX;

		private String namespace = DEFAULT_NAMESPACE;

		private Duration registryLossMargin = DEFAULT_REGISTRY_LOSS_MARGIN;

		private RegistryTrust registryTrust = RegistryTrust.SAME_SERVER;

		private boolean allowEvictingPolicy;

		private Builder(RedisConnectionFactory connectionFactory) {
			super(Integer.MAX_VALUE);
			this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
		}

		/**
		 * Sets the first part of the keys' hash tag; {@value #DEFAULT_KEY_PREFIX} by default.
		 * @param keyPrefix up to 100 characters, no braces or spaces
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			if (keyPrefix != null) {
				this.keyPrefix = requireKeyPart("keyPrefix", keyPrefix);
			}
			return this;
		}

		/**
		 * Sets the namespace: applications sharing one Redis with different namespaces hand out worker IDs
		 * independently; {@value #DEFAULT_NAMESPACE} by default.
		 * @param namespace up to 100 characters, no braces or spaces
		 * @return this builder
		 */
		public Builder namespace(String namespace) {
			if (namespace != null) {
				this.namespace = requireKeyPart("namespace", namespace);
			}
			return this;
		}

		private static String requireKeyPart(String setting, String value) {
			if (!KEY_PART.matcher(value).matches()) {
				throw new InvalidSettingException(setting, value, "use 1 to 100 characters without braces or "
						+ "whitespace; braces would break the hash tag that keeps all keys on one cluster slot");
			}
			return value;
		}

		/**
		 * Sets how long claims wait after the registry is found new or wiped; 15 s by default. It must cover how
		 * far ahead of the clock generators may reserve IDs ({@code maxAhead} plus the mark reservation) plus the
		 * clock skew between instances.
		 * @param registryLossMargin zero or more
		 * @return this builder
		 */
		public Builder registryLossMargin(Duration registryLossMargin) {
			if (registryLossMargin != null) {
				if (registryLossMargin.isNegative()) {
					throw new InvalidSettingException("registryLossMargin", registryLossMargin,
							"use a duration of zero or more, for example 15s");
				}
				this.registryLossMargin = registryLossMargin;
			}
			return this;
		}

		/**
		 * Sets when a claim may trust the registry it finds; {@link RegistryTrust#SAME_SERVER} by default.
		 * {@link RegistryTrust#NONE} makes every claim wait the registry-loss margin, which also covers the registry's
		 * keys written back into the running Redis (a {@code RESTORE} of an older dump).
		 * @param registryTrust the trust
		 * @return this builder
		 */
		public Builder registryTrust(RegistryTrust registryTrust) {
			if (registryTrust != null) {
				this.registryTrust = registryTrust;
			}
			return this;
		}

		/**
		 * Sets whether a claim goes ahead on a Redis whose {@code maxmemory-policy} is {@code allkeys-*}, which may
		 * evict the registry's keys (none expires) and so let two instances share a worker ID; refused by default,
		 * accepted with a warning at each claim when set.
		 * @param allowEvictingPolicy whether to claim on a Redis that may evict the registry
		 * @return this builder
		 */
		public Builder allowEvictingPolicy(boolean allowEvictingPolicy) {
			this.allowEvictingPolicy = allowEvictingPolicy;
			return this;
		}

		/**
		 * Builds the assigner; it talks to Redis only when a worker ID is claimed.
		 * @return the assigner
		 */
		public RedisWorkerIdAssigner build() {
			return new RedisWorkerIdAssigner(this, leaseSettings());
		}

	}

}
