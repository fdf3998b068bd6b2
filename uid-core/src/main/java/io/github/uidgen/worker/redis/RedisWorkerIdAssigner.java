package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidLayout;
import io.github.uidgen.redis.StandaloneRedis;
import io.github.uidgen.worker.AbstractLeaseBuilder;
import io.github.uidgen.worker.AllWorkerIdsLeasedException;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.support.LeaseSettings;

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
 * {@code …:tokens}, {@code …:holders}, {@code …:instances}, {@code …:marks}, {@code …:claims} (hashes; the last
 * keeps each worker ID's recent claims, written by the script that claims, probes or releases),
 * {@code …:generation} and {@code …:server}.
 *
 * <p><strong>When Redis loses its data or goes back in time.</strong> An empty registry (a restart without
 * persistence, a flush, a failover to an empty replica) has lost every mark, and a registry restored from an older
 * snapshot (or served by a replica that lagged) has older leases, tokens and marks than its holders were told; either
 * would let a newcomer reuse a worker ID whose holder issued IDs ahead of the clock. A holder checks its own record at
 * every renewal: the claim's token still in place and a mark no older than the one it last recorded. When both hold,
 * the registry came through with its writes (a restart with an append-only file, a failover to a replica that had
 * them, a Cluster slot moved) and it carries on. Otherwise the registry lost or rewound this lease; when the lease
 * cannot have expired (nobody else could take the worker ID) and the registry shows nobody claimed it since (no
 * generation key, the worker ID absent, or this claim's own token with an older mark), the renewal writes the lease
 * and its mark again and the holder carries on; in every other case it gets {@link WorkerLeaseLostException} saying
 * what happened. A newcomer cannot check anything, so two keys decide whether it may trust the registry.
 * {@code generation} is written with the first claim of a registry and never expires: a claim that finds it missing
 * knows the registry is new or wiped. {@code server} names the Redis process that last wrote the registry
 * ({@code run_id}, Cluster node ID, replication ID): the first claim, release or checked renewal that runs on another
 * process records which it is and what happened (restarted, failed over, slot moved), a holder's renewals reading it
 * only every ten seconds and after a failed one (it was a fifth of a renewal's cost to Redis, and claims always read
 * it before they take anything); a registry that names no process at all (restored from a
 * snapshot taken before its first claim) counts as written by another. In these cases, and when a holder proves its
 * own claim was lost although its lease cannot have expired, no claim in the namespace succeeds until the
 * {@link Builder#registryLossMargin registry loss margin} has passed, by the Redis clock, and the claimed worker's mark
 * is never earlier than its end; a holder whose claim was lost issues nothing past it. The margin counts from the
 * event, or, for a registry new or wiped or a Redis restarted, from the start of the Redis process: whatever a holder
 * of the previous process issues on its lease lies before that start plus the lease, so a namespace used for the
 * first time on a Redis that has run for a margin already waits nothing (a process promoted from a replica counts from
 * now). The margin must cover how far ahead of the clock any generator of the namespace may have reserved IDs (the
 * cached generator's {@code maxAhead} plus the mark reservation) plus the clock skew between instances, and bounds
 * how long holders issue on their leases while Redis does not answer; the default, 30 s, is the default lease.
 *
 * <p>A registry whose keys were written back into the same running process (a {@code RESTORE} of an older dump, a
 * {@code FLUSHALL}) cannot be told from a genuine one by a newcomer; only the holder whose claim it undid can tell, at
 * its next renewal. So holders renew every heartbeat (1.5 s unless set), each claim declares its heartbeat to the
 * namespace, and a claim stands a probation of the longest heartbeat declared by a claim not released since, a second
 * for a renewal that comes late, and a round trip (3 s by default) before the generator may issue with it, in which
 * such a holder raises the worker's mark past what it issued and makes claims wait the margin; the claim then starts
 * after that mark, or is given back and made again. A holder cut off from Redis meanwhile is not covered unless
 * another holder notices; {@link Builder#registryTrust(RegistryTrust) RegistryTrust.NONE} makes every claim wait the
 * margin, which covers that as well.
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

	/**
	 * Default wait after the registry was found lost, rewound or served by another Redis process: as long as the
	 * default lease, so that holders cut off meanwhile may issue on their leases for that long (see
	 * {@link #leaseHold()}).
	 */
	public static final Duration DEFAULT_REGISTRY_LOSS_MARGIN = Duration.ofSeconds(30);


	private static final Pattern KEY_PART = Pattern.compile("[^{}\\s]{1,100}");

	private final String keyPrefix;

	private final String namespace;

	/** Through the connection factory, or over the socket of a claim made ahead until handed over. */
	private final ScriptRoute route;

	private final RegistryNamespace registry;

	private final RegistryLayout layout;

	private final RegistryClaims claims;

	private final LeaseRenewals renewals;

	private final RegistryFleet fleet;

	/** A claim made before the generator asked, for its first {@link #assign} to take; {@code null} when none. */
	private final AtomicReference<ClaimAhead> claimAhead = new AtomicReference<>();

	private RedisWorkerIdAssigner(Builder builder, LeaseSettings lease) {
		this.keyPrefix = builder.keyPrefix;
		this.namespace = builder.namespace;
		String hashTag = "{" + this.keyPrefix + ":" + this.namespace + "}";
		this.route = new ScriptRoute(
				builder.scriptsThrough.apply(RegistryScripts.templateOn(builder.connectionFactory)));
		this.registry = RegistryNamespace.open(this.route, hashTag, lease, builder.registryLossMargin,
				builder.registryTrust, builder.allowEvictingPolicy);
		this.layout = new RegistryLayout(this.registry.scripts(), hashTag);
		this.renewals = new LeaseRenewals(this.registry, builder.serverCheckInterval);
		this.claims = new RegistryClaims(this.registry, new ClaimProbation(this.registry, this.renewals),
				this.renewals);
		this.fleet = new RegistryFleet(this.registry);
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

	/**
	 * Claims a worker ID, or takes the one {@link #claimAhead(long)} claimed when it fits: a worker ID within
	 * {@code maxWorkerId}, a mark within {@code maxMarkLead} of this host's clock, made less than half a lease ago;
	 * one that does not fit is given back first.
	 */
	@Override
	public WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		ClaimAhead ahead = this.claimAhead.getAndSet(null);
		if (ahead != null) {
			WorkerAssignment taken = ahead.take(maxWorkerId, maxMarkLead, this.registry.lease().leaseDuration());
			if (taken != null) {
				return taken;
			}
		}
		return this.claims.assign(maxWorkerId, maxMarkLead);
	}

	/**
	 * Prepares a claim, probation included, for the generator's first {@link #assign} to take, and returns the work
	 * that makes it: a starter runs it on a thread of its own before the application context is built, so that the
	 * claim's round trips and its probation pass while the rest of the application starts instead of after.
	 * {@code assign} waits for that work, so it must run. The claim prefers the worker IDs a generator at its
	 * defaults would ({@link #assign(long)}'s lead: a cached generator that ran ahead of the clock leaves its worker
	 * ID with a mark ahead, and a restart should find it again); a generator that allows less gets it only when the
	 * mark fits, else it is given back and claimed anew. A claim that failed leaves {@code assign} to claim as usual.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @return the claim, to run once
	 * @throws IllegalStateException when a claim ahead is pending already
	 */
	public Runnable claimAhead(long maxWorkerId) {
		return claimAhead(maxWorkerId, () -> {
		});
	}

	/**
	 * Prepares a claim ahead as {@link #claimAhead(long)} does, made over a socket of its own to {@code direct}
	 * instead of the connection factory: on a JVM that has just started, a client library takes a second or more of
	 * CPU to load and connect, and the probation, which begins when the claim is made, would end that much later; and
	 * the connection factory need not exist yet (a starter claims before the application context is created). Every
	 * script goes over that socket from the claim on, the layout's record and the generator's first renewals too,
	 * until {@link #handOverToConnectionFactory()}, which a starter calls once the application is ready, so that the
	 * client connects after the application's start rather than during it. {@code direct} must be the Redis and
	 * database the connection factory talks to. A claim that could not be made there hands over at once and leaves
	 * {@code assign} to claim as usual; a claim nobody takes is given back over the socket, which then closes.
	 * @param maxWorkerId the largest worker ID the layout holds
	 * @param direct the standalone Redis the connection factory talks to
	 * @return the claim, to run once
	 * @throws IllegalStateException when a claim ahead is pending already
	 */
	public Runnable claimAhead(long maxWorkerId, StandaloneRedis direct) {
		DirectScriptConnection socket = new DirectScriptConnection(Objects.requireNonNull(direct, "direct"));
		Runnable claim = claimAhead(maxWorkerId, this::handOverToConnectionFactory);
		this.route.sendOver(socket);
		return claim;
	}

	private Runnable claimAhead(long maxWorkerId, Runnable whenFailed) {
		ClaimAhead ahead = new ClaimAhead(this.renewals);
		if (!this.claimAhead.compareAndSet(null, ahead)) {
			throw new IllegalStateException("A claim ahead is pending already");
		}
		return () -> {
			try {
				ahead.claimed(this.claims.assign(maxWorkerId, LeaseSettings.DEFAULT_MAX_MARK_LEAD));
			}
			catch (RuntimeException ex) {
				whenFailed.run();
				ahead.failed(ex);
			}
		};
	}

	/**
	 * Sends every script through the connection factory from now on, and closes the socket that
	 * {@link #claimAhead(long, StandaloneRedis)} opened; does nothing otherwise, or when done already. A script under
	 * way on the socket ends there first.
	 */
	public void handOverToConnectionFactory() {
		this.route.handOver();
	}

	/**
	 * Returns whether the scripts go over the socket of {@link #claimAhead(long, StandaloneRedis)}, not yet handed
	 * over to the connection factory.
	 * @return whether they do
	 */
	public boolean isOverOwnSocket() {
		return this.route.overSocket();
	}

	/**
	 * Gives back a worker ID {@link #claimAhead(long)} claimed and no {@link #assign} took, once that claim is made;
	 * does nothing when there is none.
	 */
	public void abandonClaimAhead() {
		ClaimAhead ahead = this.claimAhead.getAndSet(null);
		if (ahead != null) {
			ahead.abandon();
		}
		handOverToConnectionFactory();
	}

	@Override
	public Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		return this.claims.assignBehind(maxWorkerId, latestMarkMillis);
	}

	@Override
	public void renew(long workerId, long highWaterMarkMillis) {
		this.renewals.renew(workerId, highWaterMarkMillis);
	}

	@Override
	public void release(long workerId, long highWaterMarkMillis) {
		this.renewals.release(workerId, highWaterMarkMillis);
	}

	/**
	 * Returns the heartbeat interval, 1.5 s unless set: a claim on probation must hear from every holder whose claim a
	 * registry written back into Redis undid, so the probation lasts as long as the longest heartbeat in the namespace,
	 * and a renewal is one short script call.
	 */
	@Override
	public Duration renewInterval() {
		return this.registry.checkInterval();
	}

	/**
	 * Returns how long after a renewal the worker ID stays this instance's while Redis does not answer: the lease, but
	 * no longer than the registry-loss margin, since a registry that lost its data makes claims wait only that long.
	 */
	@Override
	public Duration leaseHold() {
		Duration lease = this.registry.lease().leaseDuration();
		Duration margin = this.registry.registryLossMargin();
		return (lease.compareTo(margin) < 0) ? lease : margin;
	}

	/**
	 * Returns how long a claim waits, holding its worker ID, before the generator may issue with it: the holders'
	 * renewal interval, an allowance for a renewal that comes late and one for its round trip (3 s with the
	 * defaults), when no holder in the namespace declared a longer heartbeat than this instance's. Not with
	 * {@link RegistryTrust#NONE}, whose claims wait the registry-loss margin instead.
	 * @return the probation
	 */
	public Duration getClaimProbation() {
		return this.registry.waitsEveryClaim() ? Duration.ZERO : this.registry.probation();
	}

	/**
	 * Returns the namespace's fleet: every worker ID in the registry with its holder, and each one's claim history,
	 * kept in {@code …:claims}. Each read is one short script on the assigner's connection factory.
	 */
	@Override
	public Optional<WorkerFleet> fleet() {
		return Optional.of(this.fleet);
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
		return this.registry.hashTag();
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public Duration getLeaseDuration() {
		return this.registry.lease().leaseDuration();
	}

	public Duration getHeartbeatInterval() {
		return this.registry.lease().heartbeatInterval();
	}

	public Duration getRegistryLossMargin() {
		return this.registry.registryLossMargin();
	}

	public RegistryTrust getRegistryTrust() {
		return this.registry.registryTrust();
	}

	public boolean isAllowEvictingPolicy() {
		return this.registry.allowEvictingPolicy();
	}

	public String getInstanceId() {
		return this.registry.lease().instanceId();
	}

	@Override
	public String toString() {
		return "RedisWorkerIdAssigner[" + this.registry.hashTag() + ", instance '" + this.registry.lease().instanceId()
				+ "']";
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

		private Duration serverCheckInterval = LeaseRenewals.SERVER_CHECK_INTERVAL;

		private UnaryOperator<RegistryScripts.Transport> scriptsThrough = UnaryOperator.identity();

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
		 * Sets how long claims wait after the registry is found lost, rewound or served by another Redis process; 30 s
		 * by default. It must cover how far ahead of the clock generators may reserve IDs ({@code maxAhead} plus the
		 * mark reservation) plus the clock skew between instances. It also bounds how long a holder issues on its
		 * lease while Redis does not answer ({@link RedisWorkerIdAssigner#leaseHold()}): shorter than the lease, it
		 * shortens the outages that cost no refused call.
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
		 * Sets how long renewals go at most without reading which Redis process serves the registry; for tests that
		 * change it by hand, where no renewal fails in between.
		 * @param serverCheckInterval zero to read it at every renewal
		 * @return this builder
		 */
		Builder serverCheckInterval(Duration serverCheckInterval) {
			this.serverCheckInterval = serverCheckInterval;
			return this;
		}

		/**
		 * Sends the scripts through a wrapper of the way to the connection factory; for tests that hold a script back
		 * to force an interleaving with others.
		 * @param wrapper wraps the way there
		 * @return this builder
		 */
		Builder scriptsThrough(UnaryOperator<RegistryScripts.Transport> wrapper) {
			this.scriptsThrough = wrapper;
			return this;
		}

		/**
		 * Builds the assigner; it talks to Redis only when a worker ID is claimed.
		 * @return the assigner
		 */
		public RedisWorkerIdAssigner build() {
			return new RedisWorkerIdAssigner(this, leaseSettings());
		}

		/**
		 * Returns a third of the lease, at most {@code 1.5 s}: a claim stands a probation of the holders' heartbeat
		 * and a little more, 3 s with this one.
		 */
		@Override
		protected Duration defaultHeartbeatInterval(Duration leaseDuration) {
			Duration third = leaseDuration.dividedBy(3);
			Duration heartbeat = RegistryNamespace.DEFAULT_HEARTBEAT;
			return (third.compareTo(heartbeat) < 0) ? third : heartbeat;
		}

	}

}
