package io.github.uidgen.autoconfigure;

import java.time.Duration;

/**
 * Settings of the db assigner, under {@code uid.worker.db.*}.
 */
public class UidWorkerDbProperties {

	/**
	 * How worker IDs are handed out: lease reuses expired worker IDs (a lease renewed by heartbeat);
	 * disposable inserts a row into the worker-node table at every start, compatible with Baidu's
	 * UidGenerator, and never reuses an ID.
	 */
	private Mode mode = Mode.LEASE;

	/**
	 * Table of worker-ID leases, for the lease mode.
	 */
	private String leaseTable = "UID_WORKER_LEASE";

	/**
	 * Table of worker nodes, one row per start, for the disposable mode.
	 */
	private String workerNodeTable = "WORKER_NODE";

	/**
	 * Whether to create the table when it does not exist.
	 */
	private boolean initializeSchema = false;

	/**
	 * How long a worker ID stays claimed without a heartbeat, for the lease mode.
	 */
	private Duration leaseDuration = Duration.ofSeconds(30);

	/**
	 * Interval of the lease heartbeat: how often the lease is renewed and the mark recorded, the generator issuing on
	 * the lease in between. Defaults to a sixth of the lease duration (5 s).
	 */
	private Duration heartbeatInterval;

	public Mode getMode() {
		return this.mode;
	}

	public void setMode(Mode mode) {
		this.mode = mode;
	}

	public String getLeaseTable() {
		return this.leaseTable;
	}

	public void setLeaseTable(String leaseTable) {
		this.leaseTable = leaseTable;
	}

	public String getWorkerNodeTable() {
		return this.workerNodeTable;
	}

	public void setWorkerNodeTable(String workerNodeTable) {
		this.workerNodeTable = workerNodeTable;
	}

	public boolean isInitializeSchema() {
		return this.initializeSchema;
	}

	public void setInitializeSchema(boolean initializeSchema) {
		this.initializeSchema = initializeSchema;
	}

	public Duration getLeaseDuration() {
		return this.leaseDuration;
	}

	public void setLeaseDuration(Duration leaseDuration) {
		this.leaseDuration = leaseDuration;
	}

	public Duration getHeartbeatInterval() {
		return this.heartbeatInterval;
	}

	public void setHeartbeatInterval(Duration heartbeatInterval) {
		this.heartbeatInterval = heartbeatInterval;
	}

	/**
	 * How the db assigner hands out worker IDs.
	 */
	public enum Mode {

		/** Claim a worker ID under a lease and reuse expired ones. */
		LEASE,

		/** Insert a worker-node row at every start and use its new ID. */
		DISPOSABLE

	}

}
