package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.support.LeaseTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims worker IDs in the Redis registry with its claim script, and waits the registry-loss margin when the script
 * says the registry cannot be trusted yet; a trusted claim then stands its {@link ClaimProbation probation}.
 */
final class RegistryClaims {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	/** A claim waits at most this many margins, in case the registry keeps being wiped. */
	private static final int MAX_WAITS = 5;

	private final RegistryNamespace registry;

	private final ClaimProbation probation;

	private final LeaseRenewals renewals;

	RegistryClaims(RegistryNamespace registry, ClaimProbation probation, LeaseRenewals renewals) {
		this.registry = registry;
		this.probation = probation;
		this.renewals = renewals;
	}

	WorkerAssignment assign(long maxWorkerId, Duration maxMarkLead) {
		boolean waitEveryClaim = this.registry.waitsEveryClaim();
		for (int waits = 0;; waits++) {
			List<String> reply = this.registry.scripts()
				.claim(this.registry.lease().instanceId(), LeaseTokens.newToken(), Long.toString(maxWorkerId),
						Long.toString(this.registry.claimLease().toMillis()), this.registry.marginArg(),
						Long.toString(maxMarkLead.toMillis()), "", waitEveryClaim ? "wait" : "trusted",
						this.registry.evictingArg(), this.registry.lease().hostName(),
						Integer.toString(this.registry.lease().claimHistory()), this.registry.heartbeatArg());
			switch (reply.get(0)) {
				case "ok" -> {
					if (waitEveryClaim) {
						long startedNanos = System.nanoTime();
						return this.probation.waitOutMargin(reply, startedNanos, claimed(reply));
					}
					WorkerAssignment confirmed = this.probation.confirm(reply, claimed(reply), maxMarkLead.toMillis(),
							Long.MAX_VALUE);
					if (confirmed != null) {
						return confirmed;
					}
					if (waits >= MAX_WAITS) {
						throw new WorkerAssignmentException("A claim in the uid worker registry "
								+ this.registry.hashTag() + " was given back after its probation " + (waits + 1)
								+ " times in a row; is something rewriting the registry in Redis?");
					}
				}
				case "full" -> throw this.registry.lease()
					.allTaken(maxWorkerId, Long.parseLong(reply.get(1)), reply.subList(2, reply.size()),
							"Redis under " + this.registry.hashTag());
				case "evicting" -> throw evicting(reply.get(1));
				case "wait" -> awaitRegistry(Long.parseLong(reply.get(1)), Long.parseLong(reply.get(2)), reply.get(3),
						(reply.size() > 4) ? reply.get(4) : "", waits);
				default -> throw new WorkerAssignmentException("Unexpected reply from the uid claim script: " + reply);
			}
		}
	}

	Optional<WorkerAssignment> assignBehind(long maxWorkerId, long latestMarkMillis) {
		if (this.registry.waitsEveryClaim()) {
			// Every claim waits the margin, and starts after it: never behind the clock.
			return Optional.empty();
		}
		List<String> reply = this.registry.scripts()
			.claim(this.registry.lease().instanceId(), LeaseTokens.newToken(), Long.toString(maxWorkerId),
					Long.toString(this.registry.claimLease().toMillis()), this.registry.marginArg(), "0",
					Long.toString(latestMarkMillis), "trusted", this.registry.evictingArg(),
					this.registry.lease().hostName(), Integer.toString(this.registry.lease().claimHistory()),
					this.registry.heartbeatArg());
		if ("evicting".equals(reply.get(0))) {
			throw evicting(reply.get(1));
		}
		if (!"ok".equals(reply.get(0))) {
			// Nothing free with such a mark, or the registry is waiting out a loss: a claim now would have to wait.
			return Optional.empty();
		}
		WorkerAssignment assignment = this.probation.confirm(reply, claimed(reply), Long.MAX_VALUE, latestMarkMillis);
		if (assignment == null) {
			return Optional.empty();
		}
		if (assignment.hasMark() && assignment.highWaterMarkMillis() > latestMarkMillis) {
			// Shortly after a registry loss the mark is the end of the margin, which may lie later than the bound.
			this.renewals.release(assignment.workerId(), WorkerAssignment.NO_MARK);
			return Optional.empty();
		}
		return Optional.of(assignment);
	}

	private WorkerAssignmentException evicting(String policy) {
		return new WorkerAssignmentException("The Redis that holds the uid worker registry " + this.registry.hashTag()
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
					+ "allow-evicting-policy is on", this.registry.hashTag(), reply.get(6));
		}
		String token = reply.get(5);
		long mark = reply.get(2).isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(reply.get(2));
		long floor = Long.parseLong(reply.get(3));
		long redisNow = Long.parseLong(reply.get(4));
		long leaseMillis = this.registry.lease().leaseDuration().toMillis()
				+ (this.registry.waitsEveryClaim() ? this.registry.registryLossMargin().toMillis()
						: this.registry.probation().toMillis());
		if (floor > redisNow - this.registry.registryLossMargin().toMillis()) {
			// Shortly after a loss, start no earlier than the end of the margin even if this instance's clock
			// lags behind the Redis server's.
			mark = Math.max(mark, floor);
		}
		this.registry.leases().claimed(workerId, token, redisNow + leaseMillis);
		WorkerAssignment assignment = new WorkerAssignment(workerId, mark);
		logger.info("uid worker ID {} leased from Redis {} for instance '{}' ({}, lease {})", workerId,
				this.registry.hashTag(), this.registry.lease().instanceId(),
				assignment.hasMark() ? "mark " + Instant.ofEpochMilli(mark) : "no mark",
				this.registry.lease().leaseDuration());
		return assignment;
	}

	private void awaitRegistry(long floorMillis, long nowMillis, String why, String lastChange, int waits) {
		if (waits >= MAX_WAITS) {
			throw new WorkerAssignmentException("The uid worker registry " + this.registry.hashTag() + " was found "
					+ "lost or rewound " + (waits + 1) + " times in a row; is something flushing or restarting Redis? "
					+ "Redis must keep the registry for worker IDs to be safe.");
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
				+ "previous holder's IDs lie in the past", this.registry.hashTag(), reason, waitMillis);
		try {
			Thread.sleep(waitMillis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new WorkerAssignmentException("Interrupted while waiting to claim a uid worker ID", ex);
		}
	}

}
