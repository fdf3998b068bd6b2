package io.github.uidgen.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.UidTimeUnit;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.format.annotation.DateTimeFormat;

/**
 * Configuration of the auto-configured {@link io.github.uidgen.UidGenerator}, under {@code uid.*}.
 */
@ConfigurationProperties(UidProperties.PREFIX)
public class UidProperties {

	/** The prefix of every property here. */
	public static final String PREFIX = "uid";

	/**
	 * Whether to auto-configure a UidGenerator.
	 */
	private boolean enabled = true;

	/**
	 * Which generator to use: default computes each ID on the call, cached hands IDs out of a ring buffer that a
	 * background thread fills ahead of demand, segment hands out dense numbers per key from ranges claimed from a
	 * database or Redis (uid.segment.*; no worker ID, no time in the ID).
	 */
	private Generator generator = Generator.DEFAULT;

	/**
	 * A ready-made layout instead of time-unit, epoch and the bits: leaf is Meituan Leaf's (41 bits of milliseconds
	 * since 2010-11-04T01:42:54.657Z, 10 worker bits, 12 sequence bits), for continuing a Leaf deployment.
	 */
	private LayoutPreset layoutPreset;

	/**
	 * Unit the time part of an ID counts in.
	 */
	private UidTimeUnit timeUnit = UidTimeUnit.MILLISECONDS;

	/**
	 * Date (UTC) the time part of an ID counts from. It may not lie in the future; never change it for a
	 * running system, or new IDs may repeat old ones.
	 */
	@DateTimeFormat(iso = DateTimeFormat.ISO.DATE)
	private LocalDate epoch = LocalDate.of(2025, 1, 1);

	/**
	 * Number of bits of the time part. With the epoch and the time unit it decides when the layout runs out;
	 * 41 bits of milliseconds last 69 years.
	 */
	private int timeBits = 41;

	/**
	 * Number of bits of the worker ID: 2^workerBits instances can issue IDs at the same time. With
	 * uid.datacenter-bits, the data-center ID takes the top bits of these.
	 */
	private int workerBits = 10;

	/**
	 * Number of the worker bits that name a data center, so data centers whose own worker-ID stores hand out the
	 * same worker IDs never issue the same ID; 2^(workerBits - datacenterBits) instances per data center. Choose it
	 * once, the same in every data center; 0 (a single data center) leaves the IDs as they are without it.
	 */
	private int datacenterBits = 0;

	/**
	 * ID of this instance's data center, from 0 to 2^datacenterBits - 1: different in each data center, the same
	 * for every instance in one, whose worker IDs come from that data center's own store. Required once
	 * uid.datacenter-bits is above 0, so a data center that forgets it does not silently issue as data center 0.
	 */
	private Long datacenterId;

	/**
	 * Number of bits of the sequence: each worker issues up to 2^seqBits IDs per time unit. Time, worker and
	 * sequence bits together may use at most 63 bits.
	 */
	private int seqBits = 12;

	/**
	 * How far back the clock may step while the default generator carries on from the last time unit; a larger
	 * step fails ID issue until the clock catches up. The cached generator is not affected by steps back.
	 */
	private Duration clockBackwardsTolerance = Duration.ofSeconds(1);

	/**
	 * Whether the default generator, when the clock steps back further than the tolerance, goes on issuing as another
	 * worker ID whose high-water mark lies behind the clock (db, redis and zookeeper assigners), keeping the first one
	 * until the clock has passed its mark. Off, or when no such worker ID is free, ID issue fails until the clock
	 * catches up.
	 */
	private boolean clockBackwardsSwitchWorker = true;

	@NestedConfigurationProperty
	private final UidMarkProperties mark = new UidMarkProperties();

	@NestedConfigurationProperty
	private final UidCachedProperties cached = new UidCachedProperties();

	private final Worker worker = new Worker();

	@NestedConfigurationProperty
	private final UidHealthProperties health = new UidHealthProperties();

	@NestedConfigurationProperty
	private final UidSegmentProperties segment = new UidSegmentProperties();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Generator getGenerator() {
		return this.generator;
	}

	public void setGenerator(Generator generator) {
		this.generator = generator;
	}

	public LayoutPreset getLayoutPreset() {
		return this.layoutPreset;
	}

	public void setLayoutPreset(LayoutPreset layoutPreset) {
		this.layoutPreset = layoutPreset;
	}

	public UidTimeUnit getTimeUnit() {
		return this.timeUnit;
	}

	public void setTimeUnit(UidTimeUnit timeUnit) {
		this.timeUnit = timeUnit;
	}

	public LocalDate getEpoch() {
		return this.epoch;
	}

	public void setEpoch(LocalDate epoch) {
		this.epoch = epoch;
	}

	public int getTimeBits() {
		return this.timeBits;
	}

	public void setTimeBits(int timeBits) {
		this.timeBits = timeBits;
	}

	public int getWorkerBits() {
		return this.workerBits;
	}

	public void setWorkerBits(int workerBits) {
		this.workerBits = workerBits;
	}

	public int getDatacenterBits() {
		return this.datacenterBits;
	}

	public void setDatacenterBits(int datacenterBits) {
		this.datacenterBits = datacenterBits;
	}

	public Long getDatacenterId() {
		return this.datacenterId;
	}

	public void setDatacenterId(Long datacenterId) {
		this.datacenterId = datacenterId;
	}

	public int getSeqBits() {
		return this.seqBits;
	}

	public void setSeqBits(int seqBits) {
		this.seqBits = seqBits;
	}

	public Duration getClockBackwardsTolerance() {
		return this.clockBackwardsTolerance;
	}

	public void setClockBackwardsTolerance(Duration clockBackwardsTolerance) {
		this.clockBackwardsTolerance = clockBackwardsTolerance;
	}

	public boolean isClockBackwardsSwitchWorker() {
		return this.clockBackwardsSwitchWorker;
	}

	public void setClockBackwardsSwitchWorker(boolean clockBackwardsSwitchWorker) {
		this.clockBackwardsSwitchWorker = clockBackwardsSwitchWorker;
	}

	public UidMarkProperties getMark() {
		return this.mark;
	}

	public UidCachedProperties getCached() {
		return this.cached;
	}

	public Worker getWorker() {
		return this.worker;
	}

	public UidHealthProperties getHealth() {
		return this.health;
	}

	public UidSegmentProperties getSegment() {
		return this.segment;
	}

	/**
	 * Ready-made layouts.
	 */
	public enum LayoutPreset {

		/** Meituan Leaf's Snowflake layout. */
		LEAF

	}

	/**
	 * The kinds of generator.
	 */
	public enum Generator {

		/** Computes each ID on the call. */
		DEFAULT,

		/** Hands IDs out of a ring buffer filled ahead of demand. */
		CACHED,

		/** Hands out dense numbers per key from segments claimed from a database or Redis. */
		SEGMENT

	}

	/**
	 * Where this instance's worker ID comes from.
	 */
	public static class Worker {

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

		private final Static staticAssigner = new Static();

		private final Db db = new Db();

		private final Redis redis = new Redis();

		private final Zookeeper zookeeper = new Zookeeper();

		public Assigner getAssigner() {
			return this.assigner;
		}

		public void setAssigner(Assigner assigner) {
			this.assigner = assigner;
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

		public Static getStatic() {
			return this.staticAssigner;
		}

		public Db getDb() {
			return this.db;
		}

		public Redis getRedis() {
			return this.redis;
		}

		public Zookeeper getZookeeper() {
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

		/**
		 * Settings of the static assigner.
		 */
		public static class Static {

			/**
			 * File that keeps the worker's high-water mark across restarts. Defaults to
			 * uid-state/worker-{id}.state under the working directory.
			 */
			private Path stateFile;

			/**
			 * Where the worker ID comes from instead of uid.worker.id: hostname takes the ordinal a Kubernetes
			 * StatefulSet gives each pod, the number after the last dash of the host name (ids-3 is 3); env takes
			 * it from the environment variable named by ordinal-env. Not set: uid.worker.id.
			 */
			private OrdinalSource ordinalFrom;

			/**
			 * Environment variable that holds the pod's ordinal, for ordinal-from=env; for example POD_INDEX filled
			 * from the pod label apps.kubernetes.io/pod-index.
			 */
			private String ordinalEnv;

			/**
			 * Number added to the ordinal to make the worker ID, so that several StatefulSets can share one worker-ID
			 * space without overlapping.
			 */
			private long ordinalOffset = 0;

			/**
			 * Backup worker IDs the default generator goes on issuing as when the clock steps back further than
			 * uid.clock-backwards-tolerance, each with its own state file next to state-file (.backup-{id}). Like the
			 * worker ID itself, no other instance may use them. Refused at start where they would do nothing: with
			 * another assigner, the cached or segment generator, or clock-backwards-switch-worker off.
			 */
			private List<Long> backupIds = new ArrayList<>();

			public Path getStateFile() {
				return this.stateFile;
			}

			public void setStateFile(Path stateFile) {
				this.stateFile = stateFile;
			}

			public OrdinalSource getOrdinalFrom() {
				return this.ordinalFrom;
			}

			public void setOrdinalFrom(OrdinalSource ordinalFrom) {
				this.ordinalFrom = ordinalFrom;
			}

			public String getOrdinalEnv() {
				return this.ordinalEnv;
			}

			public void setOrdinalEnv(String ordinalEnv) {
				this.ordinalEnv = ordinalEnv;
			}

			public long getOrdinalOffset() {
				return this.ordinalOffset;
			}

			public List<Long> getBackupIds() {
				return this.backupIds;
			}

			public void setBackupIds(List<Long> backupIds) {
				this.backupIds = backupIds;
			}

			public void setOrdinalOffset(long ordinalOffset) {
				this.ordinalOffset = ordinalOffset;
			}

			/**
			 * Where a pod's ordinal is read from.
			 */
			public enum OrdinalSource {

				/** The number after the last dash of the host name, as a StatefulSet names its pods. */
				HOSTNAME,

				/** An environment variable, named by ordinal-env. */
				ENV

			}

		}

		/**
		 * Settings of the db assigner.
		 */
		public static class Db {

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
			 * Interval of the lease heartbeat. Defaults to a third of the lease duration.
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

		/**
		 * Settings of the redis assigner.
		 */
		public static class Redis {

			/**
			 * Prefix of every Redis key the assigner uses.
			 */
			private String keyPrefix = "uid";

			/**
			 * Name of the group of instances that share one worker-ID space; separate applications use separate
			 * namespaces.
			 */
			private String namespace = "default";

			/**
			 * How long a worker ID stays claimed without a heartbeat.
			 */
			private Duration leaseDuration = Duration.ofSeconds(30);

			/**
			 * Interval of the lease heartbeat. Defaults to a third of the lease duration. Holders renew at least every
			 * 1.5 s whatever it is, and a claim waits that interval plus a round trip before it issues.
			 */
			private Duration heartbeatInterval;

			/**
			 * How long claims wait after the registry is found new, wiped (Redis lost its data) or written by
			 * another Redis process (a restart or failover, perhaps from older data), so that no worker ID is reused
			 * while IDs issued before may still lie ahead of the clock. Must cover uid.cached.max-ahead plus
			 * uid.mark.reservation plus the clock skew between instances.
			 */
			private Duration registryLossMargin = Duration.ofSeconds(15);

			/**
			 * When a claim may trust the worker registry it finds: 'same-server' trusts a registry that the same Redis
			 * process wrote last, after the claim's probation (2 s by default), in which holders whose claims the
			 * registry's keys written back into the running Redis undid (a RESTORE of an older dump, a key-copying
			 * migration) stop and raise their worker's mark, and waits the registry-loss margin otherwise; 'none'
			 * makes every claim wait the margin, which also covers such a holder cut off from Redis meanwhile, at the
			 * cost of that wait at every start.
			 */
			private RegistryTrust registryTrust = RegistryTrust.SAME_SERVER;

			/**
			 * Whether to claim worker IDs on a Redis whose maxmemory-policy is allkeys-*, which may evict the
			 * registry's keys (none expires) and so let two instances issue with one worker ID; false refuses to start
			 * on it, naming the policy; true accepts it with a warning at each claim.
			 */
			private boolean allowEvictingPolicy;

			public String getKeyPrefix() {
				return this.keyPrefix;
			}

			public void setKeyPrefix(String keyPrefix) {
				this.keyPrefix = keyPrefix;
			}

			public String getNamespace() {
				return this.namespace;
			}

			public void setNamespace(String namespace) {
				this.namespace = namespace;
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

			public Duration getRegistryLossMargin() {
				return this.registryLossMargin;
			}

			public void setRegistryLossMargin(Duration registryLossMargin) {
				this.registryLossMargin = registryLossMargin;
			}

			public RegistryTrust getRegistryTrust() {
				return this.registryTrust;
			}

			public void setRegistryTrust(RegistryTrust registryTrust) {
				this.registryTrust = registryTrust;
			}

			public boolean isAllowEvictingPolicy() {
				return this.allowEvictingPolicy;
			}

			public void setAllowEvictingPolicy(boolean allowEvictingPolicy) {
				this.allowEvictingPolicy = allowEvictingPolicy;
			}

			/**
			 * When a claim may trust the worker registry it finds in Redis.
			 */
			public enum RegistryTrust {

				/**
				 * Trust a registry the same Redis process wrote last; wait the margin otherwise.
				 */
				SAME_SERVER,

				/**
				 * Trust no registry: every claim waits the margin, which also covers the registry's keys written back
				 * into the running Redis.
				 */
				NONE

			}

		}

		/**
		 * Settings of the zookeeper assigner.
		 */
		public static class Zookeeper {

			/**
			 * ZooKeeper ensemble to connect to, as host:port pairs separated by commas. Used only when the
			 * application has no CuratorFramework bean of its own.
			 */
			private String connectString = "localhost:2181";

			/**
			 * Path under which every namespace keeps its znodes.
			 */
			private String rootPath = "/uid";

			/**
			 * Name of the group of instances that share one worker-ID space; separate applications use separate
			 * namespaces.
			 */
			private String namespace = "default";

			/**
			 * ZooKeeper session timeout. A session that ends (the ensemble unreachable for this long) loses the
			 * lease, and the generator stops issuing IDs. Used only when uid builds the client.
			 */
			private Duration sessionTimeout = Duration.ofSeconds(30);

			/**
			 * How long connecting to ZooKeeper may take before start-up fails.
			 */
			private Duration connectionTimeout = Duration.ofSeconds(10);

			/**
			 * How long a worker ID stays claimed without a heartbeat.
			 */
			private Duration leaseDuration = Duration.ofSeconds(30);

			/**
			 * Interval of the lease heartbeat. Defaults to a third of the lease duration.
			 */
			private Duration heartbeatInterval;

			/**
			 * How worker IDs are held: lease (uid's own reusable leases under root-path) or leaf (the worker ID
			 * Meituan Leaf gave this host's ip:port under /snowflake/{leaf.name}/forever, with uid.layout-preset=leaf).
			 */
			private Mode mode = Mode.LEASE;

			private final Leaf leaf = new Leaf();

			public String getConnectString() {
				return this.connectString;
			}

			public void setConnectString(String connectString) {
				this.connectString = connectString;
			}

			public String getRootPath() {
				return this.rootPath;
			}

			public void setRootPath(String rootPath) {
				this.rootPath = rootPath;
			}

			public String getNamespace() {
				return this.namespace;
			}

			public void setNamespace(String namespace) {
				this.namespace = namespace;
			}

			public Duration getSessionTimeout() {
				return this.sessionTimeout;
			}

			public void setSessionTimeout(Duration sessionTimeout) {
				this.sessionTimeout = sessionTimeout;
			}

			public Duration getConnectionTimeout() {
				return this.connectionTimeout;
			}

			public void setConnectionTimeout(Duration connectionTimeout) {
				this.connectionTimeout = connectionTimeout;
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

			public Mode getMode() {
				return this.mode;
			}

			public void setMode(Mode mode) {
				this.mode = mode;
			}

			public Leaf getLeaf() {
				return this.leaf;
			}

			/**
			 * How the zookeeper assigner holds worker IDs.
			 */
			public enum Mode {

				/** uid's own reusable leases. */
				LEASE,

				/** Meituan Leaf's snowflake nodes, continued in place. */
				LEAF

			}

			/**
			 * Settings of the leaf mode: which Leaf node this instance continues.
			 */
			public static class Leaf {

				/**
				 * Leaf's leaf.name: the nodes live under /snowflake/{name}/forever.
				 */
				private String name;

				/**
				 * Address this host's Leaf node is named after. Defaults to the one a Leaf server here reports: the
				 * first IPv4 address of the network interfaces that is not loopback.
				 */
				private String ip;

				/**
				 * Port this host's Leaf node is named after: the leaf.snowflake.port of the Leaf server this instance
				 * replaces. Defaults to server.port.
				 */
				private Integer port;

				public String getName() {
					return this.name;
				}

				public void setName(String name) {
					this.name = name;
				}

				public String getIp() {
					return this.ip;
				}

				public void setIp(String ip) {
					this.ip = ip;
				}

				public Integer getPort() {
					return this.port;
				}

				public void setPort(Integer port) {
					this.port = port;
				}

			}

		}

	}

}
