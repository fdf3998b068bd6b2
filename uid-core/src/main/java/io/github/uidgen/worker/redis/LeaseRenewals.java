package io.github.uidgen.worker.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerLeaseLostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews and releases the leases a {@link RedisWorkerIdAssigner} holds, and says, when a renewal fails, whether the
 * lease expired, was taken, or was lost with the registry's data: the holder is the only one who can tell.
 */
final class LeaseRenewals {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(RedisWorkerIdAssigner.class);

	/**
	 * How long renewals go at most without reading which Redis process serves the registry: that read ({@code INFO})
	 * was a fifth of what a renewal cost Redis, and only tells the holder what claims find out for themselves.
	 */
	static final Duration SERVER_CHECK_INTERVAL = Duration.ofSeconds(10);

	private final RegistryNamespace registry;

	private final long serverCheckNanos;

	/** The Redis process that answered this assigner's last renewal, so a change is logged once per assigner. */
	private volatile String lastServer;

	/** Whether the next renewal reads which process serves the registry: the first, and any after a failure. */
	private volatile boolean checkNext = true;

	/** When the last renewal that read it was sent ({@link System#nanoTime()}). */
	private volatile long checkedAt;

	LeaseRenewals(RegistryNamespace registry, Duration serverCheckInterval) {
		this.registry = registry;
		this.serverCheckNanos = serverCheckInterval.toNanos();
	}

	void renew(long workerId, long highWaterMarkMillis) {
		HeldLeases.Held held = this.registry.leases().require(workerId);
		long sentAt = System.nanoTime();
		boolean check = this.checkNext || sentAt - this.checkedAt >= this.serverCheckNanos;
		List<String> reply;
		try {
			reply = this.registry.scripts()
				.renew(Long.toString(workerId), held.token(), Long.toString(highWaterMarkMillis),
						Long.toString(this.registry.lease().leaseDuration().toMillis()), this.registry.marginArg(),
						(held.recordedMark() != null) ? Long.toString(held.recordedMark()) : "",
						Long.toString(held.expiresAt()), this.registry.lease().instanceId(),
						this.registry.lease().hostName(), Integer.toString(this.registry.lease().claimHistory()),
						check ? "" : "unchecked");
		}
		catch (RuntimeException ex) {
			// Redis may have restarted or failed over meanwhile: the next renewal reads who serves it now.
			this.checkNext = true;
			throw ex;
		}
		String outcome = reply.get(0);
		this.checkNext = !"ok".equals(outcome);
		if (check) {
			this.checkedAt = sentAt;
		}
		if ("ok".equals(outcome)) {
			this.registry.leases().renewed(workerId, held, highWaterMarkMillis, Long.parseLong(reply.get(3)),
					reply.get(2));
			String reestablished = (reply.size() > 6) ? reply.get(6) : "";
			if (!reestablished.isEmpty()) {
				noteReestablished(workerId, reestablished, RegistryChange.parse(reply.get(1)), reply.get(5));
				this.lastServer = reply.get(2);
			}
			else {
				noteServer(workerId, RegistryChange.parse(reply.get(1)), reply.get(2));
			}
			return;
		}
		if (outdated(workerId, held, outcome, reply)) {
			throw new WorkerAssignmentException("uid worker " + workerId + ": a renewal sent before a later renewal "
					+ "came back found the lease lost from Redis (" + outcome + "), and could not tell it from a lease "
					+ "that ran out; by the later renewal the lease could not have expired: the next renewal decides");
		}
		this.registry.leases().lost(workerId, held);
		String what = "";
		if (reply.size() > 3 && !reply.get(2).equals(held.server()) && !reply.get(3).isEmpty()) {
			// Another process serves the registry since this lease was last confirmed: say how it came to be.
			what = " (" + new RegistryChange(reply.get(3), held.server(), "-", reply.get(2), "-").describe() + ")";
		}
		String detail = switch (outcome) {
			case "wiped" -> "Redis lost the worker registry " + this.registry.hashTag() + ": its generation key is "
					+ "gone, so its data was lost; the lease is not re-created, as it can no longer be proven";
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
	 * Whether a renewal that found its lease lost ({@code released}, {@code taken}, {@code wiped}, {@code rewound})
	 * without being sure the lease could not have expired was sent with an older expiry than this instance knows now:
	 * a later renewal came back meanwhile with one that lies past the moment this one ran (Redis clock). Its finding
	 * is not the last word, as the next renewal carries the newer expiry and so writes the lease again where nobody
	 * claimed the worker ID since, or finds it lost for certain, making newcomers wait the margin as it does.
	 * Renewals are outstanding side by side after an outage, the client sending the older ones late: taking their
	 * finding as final stopped a quarter of a fleet after an empty restart, each for the 30 s registry-loss margin its
	 * claim then waited.
	 */
	private boolean outdated(long workerId, HeldLeases.Held sentWith, String outcome, List<String> reply) {
		String ranAt;
		if (("released".equals(outcome) || "taken".equals(outcome)) && reply.size() > 5 && "0".equals(reply.get(4))) {
			ranAt = reply.get(5);
		}
		else if ("wiped".equals(outcome) && reply.size() > 1) {
			ranAt = reply.get(1);
		}
		else if ("rewound".equals(outcome) && reply.size() > 4) {
			ranAt = reply.get(4);
		}
		else {
			return false;
		}
		HeldLeases.Held known = this.registry.leases().current(workerId);
		return known != null && known != sentWith && known.expiresAt() > Long.parseLong(ranAt);
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
					+ "instance's lease cannot have expired (" + since + "); new claims in " + this.registry.hashTag()
					+ " wait the registry-loss margin";
		}
		if ("released".equals(outcome)) {
			return this.registry.lease().instanceId().equals(holder) ? "it was released"
					: "its lease is gone from Redis (" + since + "; the registry lost data, or it was changed by hand)"
							+ what;
		}
		return "the lease expired (" + since + ") and instance '" + holder + "' holds it now" + what;
	}

	private static String mark(String millis) {
		return (millis == null || millis.isEmpty() || "null".equals(millis)) ? "none"
				: Instant.ofEpochMilli(Long.parseLong(millis)).toString();
	}

	/**
	 * Logs that the registry had lost or rewound this lease, and that the renewal wrote it again: its lease could not
	 * have expired, so nobody else could take the worker ID, and the registry showed nobody had claimed it since.
	 */
	private void noteReestablished(long workerId, String how, RegistryChange change, String floor) {
		String lost = switch (how) {
			case "wiped" -> "Redis had lost the whole registry (its generation key was gone)";
			case "absent" -> "the registry no longer had this worker ID at all";
			case "rewound" -> "the registry held an older mark of this lease than the one this instance recorded";
			default -> "the registry had lost this lease (" + how + ")";
		};
		logger.warn("uid worker {}: {}{}. This lease could not have expired and nobody has claimed the worker ID since, "
				+ "so the renewal wrote the lease and its mark again, and the generator carries on. New claims in {} "
				+ "wait until {}, as other holders' records may be lost too", workerId, lost,
				(change != null) ? " (" + change.describe() + ")" : "", this.registry.hashTag(),
				floor.isEmpty() ? "the registry-loss margin has passed" : Instant.ofEpochMilli(Long.parseLong(floor)));
	}

	/** Logs, once per assigner, that another Redis process serves the registry now and this lease came through. */
	private void noteServer(long workerId, RegistryChange change, String server) {
		String previous = this.lastServer;
		this.lastServer = server;
		if (change != null) {
			logger.warn("uid worker {}: {}; this lease's record in Redis is intact, so it carries on. New claims in {} "
					+ "wait the registry-loss margin ({} ms), as the registry's history cannot be vouched for",
					workerId, change.describe(), this.registry.hashTag(), this.registry.registryLossMargin().toMillis());
		}
		else if (previous != null && !previous.equals(server)) {
			logger.info("uid worker {}: the registry {} is served by Redis process {} now (was {}); this lease's record "
					+ "is intact, so it carries on", workerId, this.registry.hashTag(), server, previous);
		}
	}

	void release(long workerId, long highWaterMarkMillis) {
		HeldLeases.Held held = this.registry.leases().release(workerId);
		if (held == null) {
			return;
		}
		String mark = (highWaterMarkMillis == WorkerAssignment.NO_MARK) ? "" : Long.toString(highWaterMarkMillis);
		List<String> reply = this.registry.scripts()
			.release(Long.toString(workerId), held.token(), mark, this.registry.marginArg());
		if ("released".equals(reply.get(0))) {
			logger.info("uid worker ID {} released in Redis {}", workerId, this.registry.hashTag());
		}
		else {
			logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
		}
	}

}
