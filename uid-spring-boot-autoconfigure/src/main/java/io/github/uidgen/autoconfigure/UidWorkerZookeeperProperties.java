package io.github.uidgen.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of the zookeeper assigner, under {@code uid.worker.zookeeper.*}.
 */
public class UidWorkerZookeeperProperties {

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
	 * Interval of the lease heartbeat: how often the lease is renewed and the mark recorded, the generator issuing on
	 * the lease in between. Defaults to a sixth of the lease duration (5 s).
	 */
	private Duration heartbeatInterval;

	/**
	 * How worker IDs are held: lease (uid's own reusable leases under root-path) or leaf (the worker ID
	 * Meituan Leaf gave this host's ip:port under /snowflake/{leaf.name}/forever, with uid.layout-preset=leaf).
	 */
	private Mode mode = Mode.LEASE;

	@NestedConfigurationProperty
	private final UidWorkerZookeeperLeafProperties leaf = new UidWorkerZookeeperLeafProperties();

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

	public UidWorkerZookeeperLeafProperties getLeaf() {
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

}
