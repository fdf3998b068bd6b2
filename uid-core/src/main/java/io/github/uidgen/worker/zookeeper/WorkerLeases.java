package io.github.uidgen.worker.zookeeper;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerLeaseLostException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.support.LeaseSettings;
import io.github.uidgen.worker.support.LeaseTokens;
import io.github.uidgen.worker.zookeeper.ClaimCandidates.Candidate;
import io.github.uidgen.worker.zookeeper.CuratorCalls.Conflict;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.Snapshot;
import io.github.uidgen.worker.zookeeper.WorkerRegistry.WorkerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes, renews and releases the leases a {@link ZookeeperWorkerIdAssigner} holds, each one versioned transaction,
 * and tells a write whose answer was lost (its own token and session still in place) from a lease another took.
 */
final class WorkerLeases {

	/** Logs as the assigner, so one logger setting covers all of the assigner's parts. */
	private static final Logger logger = LoggerFactory.getLogger(ZookeeperWorkerIdAssigner.class);

	private final WorkerRegistry registry;

	private final LeaseSettings lease;

	private final Map<Long, HeldLease> held = new ConcurrentHashMap<>();

	WorkerLeases(WorkerRegistry registry, LeaseSettings lease) {
		this.registry = registry;
		this.lease = lease;
	}

	/**
	 * Tries one candidate; returns {@code null} when another instance got it first. The claim is added to the worker
	 * ID's history in the same transaction, closing the previous claim if its holder never released it.
	 * @param candidate the worker ID and its znode as read
	 * @param snapshot what the candidate was read in: its time is the claim's, and its claims znode may be there
	 * @param claimant the claim's place in the queue of claims in flight, which the take leaves; {@code null} for none
	 */
	WorkerAssignment tryTake(Candidate candidate, Snapshot snapshot, Claimant claimant) {
		long storeMillis = snapshot.storeMillis();
		String token = LeaseTokens.newToken();
		WorkerNode read = candidate.node();
		long mark = (read != null) ? read.startMarkMillis(storeMillis) : WorkerAssignment.NO_MARK;
		String host = this.lease.hostName().replace('\n', ' ').replace('\r', ' ');
		WorkerRecord record = new WorkerRecord(this.lease.instanceId(), token, holdMillis(), mark, host, storeMillis);
		// A worker ID never used has no claims znode but where one was left behind (its worker znode deleted by
		// hand): its take creates the znode, and reads it only when that create is refused.
		ClaimList.Stored claims = (read == null) ? ClaimList.Stored.NONE : snapshot.claims().get(candidate.workerId());
		if (claims == null) {
			claims = this.registry.claims(candidate.workerId());
		}
		long sessionId = this.registry.sessionId();
		int version;
		try {
			version = this.registry.take(candidate.workerId(), read, candidate.staleLeaseNode(), record, claims,
					(list) -> closePrevious(list, read, storeMillis).open(storeMillis, mark, host,
							this.lease.instanceId(), this.lease.claimHistory()),
					claimant, candidate.owner());
		}
		catch (Conflict ex) {
			// The transaction may have been applied and only its answer lost (the client then retried it): nobody but
			// this claim knows the token, which its lease znode holds. A race lost is told by that one read.
			if (!token.equals(this.registry.leaseToken(candidate.workerId()))) {
				return null;
			}
			WorkerNode now = this.registry.read(candidate.workerId());
			if (now == null || !record.equals(now.record()) || !now.leaseNode()) {
				return null;
			}
			version = now.version();
			if (claimant != null) {
				// Left the queue in that transaction.
				claimant.dequeued();
			}
		}
		this.held.put(candidate.workerId(), new HeldLease(record, version, sessionId));
		WorkerAssignment assignment = new WorkerAssignment(candidate.workerId(), mark);
		logger.info("uid worker ID {} leased from ZooKeeper {} for instance '{}' ({}, lease {})",
				candidate.workerId(), this.registry.basePath(), this.lease.instanceId(),
				assignment.hasMark() ? "mark " + Instant.ofEpochMilli(mark) : "no mark", this.lease.leaseDuration());
		return assignment;
	}

	/**
	 * Closes the previous holder's claim, if still open: as released when its record says so (a release by a version
	 * that kept no history), else as expired at its lease's expiry, or at this claim when its session ended sooner.
	 */
	private static ClaimList closePrevious(ClaimList history, WorkerNode read, long storeMillis) {
		if (read == null || read.record() == null) {
			return history;
		}
		if (!read.record().leased()) {
			return history.closeNewest(ClaimEnd.RELEASED, read.modifiedMillis());
		}
		long expiry = read.modifiedMillis() + read.record().leaseMillis();
		return history.closeNewest(ClaimEnd.EXPIRED, Math.min(expiry, storeMillis));
	}

	/**
	 * Returns how long the worker ID stays this instance's after a renewal: the lease, or the session's timeout when
	 * that is shorter (the ensemble deletes the lease znode once the session ends). Recorded as the record's lease, so
	 * a claimant judges expiry, and starts after it, by the same figure the holder issues on while ZooKeeper does not
	 * answer.
	 */
	long holdMillis() {
		long lease = this.lease.leaseDuration().toMillis();
		long session = this.registry.sessionTimeoutMillis();
		return (session > 0 && session < lease) ? session : lease;
	}

	void renew(long workerId, long highWaterMarkMillis) {
		HeldLease lease = this.held.get(workerId);
		if (lease == null) {
			throw new WorkerLeaseLostException(workerId, "this assigner holds no lease on it");
		}
		requireClaimSession(workerId, lease, "has ended, and with it the ephemeral lease znode");
		WorkerRecord record = lease.record().withMarkAtLeast(highWaterMarkMillis);
		int version = lease.version();
		for (int attempt = 1;; attempt++) {
			try {
				version = this.registry.renew(workerId, record, version);
				break;
			}
			catch (Conflict ex) {
				WorkerNode now = this.registry.read(workerId);
				long leaseOwner = this.registry.leaseOwner(workerId);
				if (!heldBy(lease, now, leaseOwner)) {
					this.held.remove(workerId, lease);
					throw new WorkerLeaseLostException(workerId, lostDetail(workerId, lease, now, leaseOwner));
				}
				if (record.equals(now.record())) {
					// This renewal was applied, but its answer was lost and the client retried it.
					version = now.version();
					break;
				}
				// An earlier renewal was applied though its answer was lost: the token and the session are still
				// this claim's, so nobody else took the worker ID. Write again over the version it left.
				if (attempt == CuratorCalls.MAX_OWN_WRITE_ATTEMPTS) {
					throw new WorkerStoreUnavailableException("The znode of uid worker ID " + workerId + " under "
							+ this.registry.basePath() + " changed " + attempt + " times while it was renewed, each "
							+ "time still under this instance's lease; trying again at the next renewal.", ex);
				}
				record = record.withMarkAtLeast(now.record().markMillis());
				version = now.version();
			}
		}
		// The session may have ended while the renewal was under way, and the client sent it again in its new
		// session, where it passes: the lease znode of the old one lives on until the ensemble expires that session,
		// and then goes with it, when a claim may take the worker ID at once. Only a renewal made in the lease's own
		// session keeps that session alive for as long as the holder then issues on it.
		requireClaimSession(workerId, lease, "ended while it was renewed; its ephemeral lease znode goes with that "
				+ "session");
		this.held.replace(workerId, lease, new HeldLease(record, version, lease.sessionId()));
	}

	/** Drops the lease and says it is lost unless the client is still in the session the worker ID was claimed in. */
	private void requireClaimSession(long workerId, HeldLease lease, String detail) {
		if (this.registry.sessionId() != lease.sessionId()) {
			this.held.remove(workerId, lease);
			throw new WorkerLeaseLostException(workerId, "the ZooKeeper session it was claimed in " + detail);
		}
	}

	/** Returns whether a worker znode still carries a lease's token, under a lease znode of the lease's session. */
	private static boolean heldBy(HeldLease lease, WorkerNode now, long leaseOwner) {
		return now != null && now.record() != null && now.record().leased()
				&& lease.record().token().equals(now.record().token())
				&& lease.record().instanceId().equals(now.record().instanceId()) && leaseOwner == lease.sessionId();
	}

	private String lostDetail(long workerId, HeldLease lease, WorkerNode now, long leaseOwner) {
		if (now == null) {
			return "its znode " + this.registry.workerPath(workerId) + " is gone from ZooKeeper (deleted by hand?)";
		}
		if (now.record() == null) {
			return "its znode " + this.registry.workerPath(workerId) + " no longer holds a uid worker record";
		}
		if (!lease.record().token().equals(now.record().token())) {
			return now.record().leased() ? "the lease expired and instance '" + now.record().instanceId()
					+ "' holds it now" : "its lease was released by instance '" + now.record().instanceId() + "'";
		}
		if (leaseOwner == 0) {
			return "its ephemeral lease znode " + this.registry.leaseZnode(workerId) + " is gone: the ZooKeeper "
					+ "session it was claimed in ended, or the znode was deleted";
		}
		return "its lease znode " + this.registry.leaseZnode(workerId) + " belongs to ZooKeeper session 0x"
				+ Long.toHexString(leaseOwner) + ", not to this instance's session 0x"
				+ Long.toHexString(lease.sessionId());
	}

	void release(long workerId, long highWaterMarkMillis) {
		HeldLease lease = this.held.remove(workerId);
		if (lease == null) {
			return;
		}
		WorkerRecord released = lease.record().withMarkAtLeast(highWaterMarkMillis).released();
		try {
			release(workerId, released, lease.version(), true);
		}
		catch (Conflict ex) {
			// The lease znode may be gone with an ended session while the worker znode is still this claim's: the
			// final mark must be recorded all the same.
			WorkerNode now = this.registry.read(workerId);
			if (now == null || now.record() == null
					|| !(released.equals(now.record()) || lease.record().token().equals(now.record().token()))) {
				logger.warn("uid worker ID {} was no longer leased by this instance at release", workerId);
				return;
			}
			if (!released.equals(now.record())) {
				try {
					release(workerId, released.withMarkAtLeast(now.record().markMillis()), now.version(),
							now.leaseNode());
				}
				catch (Conflict again) {
					logger.warn("uid worker ID {} was taken by another instance while it was released", workerId);
					return;
				}
			}
		}
		logger.info("uid worker ID {} released in ZooKeeper {}", workerId, this.registry.basePath());
	}

	/**
	 * Releases in one transaction with the claim's end in the history: the newest claim is this one's, since every
	 * claim writes its own in the transaction that takes the worker znode this release writes over.
	 */
	private void release(long workerId, WorkerRecord released, int version, boolean withLeaseNode) {
		long at = this.registry.storeMillis();
		ClaimList.Stored claims = this.registry.claims(workerId);
		this.registry.release(workerId, released, version, withLeaseNode, claims,
				claims.list().closeNewest(ClaimEnd.RELEASED, at));
	}

	/** A lease this assigner holds: the record it last wrote, that write's version, and the claim's session. */
	private record HeldLease(WorkerRecord record, int version, long sessionId) {
	}

}
