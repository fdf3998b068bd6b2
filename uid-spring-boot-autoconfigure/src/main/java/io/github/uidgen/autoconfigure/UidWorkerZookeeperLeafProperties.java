package io.github.uidgen.autoconfigure;

/**
 * Settings of the leaf mode: which Leaf node this instance continues, under {@code uid.worker.zookeeper.leaf.*}.
 */
public class UidWorkerZookeeperLeafProperties {

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
