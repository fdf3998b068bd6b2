package io.github.uidgen.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Where this instance's worker ID comes from, under {@code uid.worker.*}.
 */
public class UidWorkerProperties {

	/**
	 * Where the worker ID comes from: static (uid.worker.id), db (a table in the application's DataSource),
	 * redis (the application's Redis) or zookeeper (ZooKeeper through Apache Curator). When not set, static is
	 * chosen only if uid.worker.id is set; otherwise start-up fails, as every instance would silently share
	 * one worker ID.
	 */
	private Assigner assigner;

	/**
	 * The worker ID of this instance, for the static assigner. It must differ between all instances running
	 * at the same time (in one data center) and lie between 0 and 2^(workerBits - datacenterBits) - 1.
	 */
	private Long id;

	/**
	 * Name of this instance in the db, redis or zookeeper worker-ID store, so a restart claims its previous
	 * worker ID.
	 * Defaults to one derived from the host name and port.
	 */
	private String instanceId;

	/**
	 * Whether a generator whose lease was lost (taken by another instance after a partition outlasted it, or lost
	 * or rewound by the store) claims a worker ID again by itself, as a newcomer would, and issues again once
	 * nothing it could issue may collide. When false, it stays stopped (health DOWN) until the instance is
	 * restarted.
	 */
	private boolean reclaimLostLease = true;

	/**
	 * How many claims of each worker ID the db, redis or zookeeper store keeps (instance, host, from, to), so that
	 * /actuator/uid/parse can say which instance issued an ID; from 1 to 10000. Each claim prunes the oldest
	 * beyond this in the same atomic step that writes it.
	 */
	private int claimHistory = 256;

	/**
	 * How far this instance's clock may run ahead of its db, redis or zookeeper store's clock (and of the other
	 * instances'). While the store does not answer, the generator goes on issuing on its lease until this long
	 * before the lease's expiry, as the store counts it; an instance whose clock ran further ahead could repeat IDs
	 * with whoever takes its worker ID after an outage. Keep your clocks in sync (NTP) well within it.
	 */
	private Duration maxClockSkew = Duration.ofSeconds(2);

	/**
	 * How long the start keeps trying a db, redis or zookeeper store that does not answer the claim of a worker ID
	 * (down, restarting, or slow to accept the first connection while many instances start at once), counted from
	 * the first try, before it fails; each try is logged. 0 fails at the first unanswered call. A store that answers with an error (all
	 * worker IDs leased, a layout mismatch) fails the start at once, whatever this says.
	 */
	private Duration storeWaitAtStart = Duration.ofSeconds(10);

	private final UidWorkerStaticProperties staticAssigner = new UidWorkerStaticProperties();

	@NestedConfigurationProperty
	private final UidWorkerDbProperties db = new UidWorkerDbProperties();

	@NestedConfigurationProperty
	private final UidWorkerRedisProperties redis = new UidWorkerRedisProperties();

	@NestedConfigurationProperty
	private final UidWorkerZookeeperProperties zookeeper = new UidWorkerZookeeperProperties();

	public Assigner getAssigner() {
		return this.assigner;
	}

	public void setAssigner(Assigner assigner) {
		this.assigner = assigner;
	}

	public int getClaimHistory() {
		return this.claimHistory;
	}

	public void setClaimHistory(int claimHistory) {
		this.claimHistory = claimHistory;
	}

	public Duration getMaxClockSkew() {
		return this.maxClockSkew;
	}

	public void setMaxClockSkew(Duration maxClockSkew) {
		this.maxClockSkew = maxClockSkew;
	}

	public Duration getStoreWaitAtStart() {
		return this.storeWaitAtStart;
	}

	public void setStoreWaitAtStart(Duration storeWaitAtStart) {
		this.storeWaitAtStart = storeWaitAtStart;
	}

	public Long getId() {
		return this.id;
	}

	public void setId(Long id) {
		this.id = id;
	}

	public String getInstanceId() {
		return this.instanceId;
	}

	public void setInstanceId(String instanceId) {
		this.instanceId = instanceId;
	}

	public boolean isReclaimLostLease() {
		return this.reclaimLostLease;
	}

	public void setReclaimLostLease(boolean reclaimLostLease) {
		this.reclaimLostLease = reclaimLostLease;
	}

	// On the getter: the field cannot be named static, so the processor would not find it there.
	@NestedConfigurationProperty
	public UidWorkerStaticProperties getStatic() {
		return this.staticAssigner;
	}

	public UidWorkerDbProperties getDb() {
		return this.db;
	}

	public UidWorkerRedisProperties getRedis() {
		return this.redis;
	}

	public UidWorkerZookeeperProperties getZookeeper() {
		return this.zookeeper;
	}

	/**
	 * The worker-ID assigners.
	 */
	public enum Assigner {

		/** The worker ID set in uid.worker.id, its high-water mark kept in a local state file. */
		STATIC,

		/** Worker IDs handed out through a table of the application's DataSource. */
		DB,

		/** Worker IDs handed out through the application's Redis. */
		REDIS,

		/** Worker IDs handed out through ZooKeeper, with Apache Curator. */
		ZOOKEEPER

	}

}
