package io.github.uidgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Redis Cluster of a test's own: three masters ({@code redis-server --cluster-enabled yes}) on spare loopback
 * ports, each with its cluster bus on another spare port, joined by {@code redis-cli --cluster create} so that
 * they share the 16,384 slots; each node keeps its data in a directory of the test's and is stopped by its PID.
 */
public final class ThrowawayRedisCluster implements AutoCloseable {

	private static final int MASTERS = 3;

	private static final Duration STARTUP = Duration.ofSeconds(30);

	private final List<Integer> ports;

	private final List<ServerProcess> nodes;

	private final List<List<String>> commands = new ArrayList<>();

	private final List<Path> dirs = new ArrayList<>();

	/** Replicas added by {@link #addReplica(int, Path)}, by port. */
	private final Map<Integer, ServerProcess> replicas = new LinkedHashMap<>();

	private ThrowawayRedisCluster(List<Integer> ports, List<ServerProcess> nodes) {
		this.ports = ports;
		this.nodes = nodes;
	}

	/**
	 * Starts three empty masters, creates the cluster and waits until every node reports all slots served.
	 * @param dir a directory of the test's own for the nodes' data and logs
	 * @return the running cluster
	 */
	public static ThrowawayRedisCluster start(Path dir) {
		List<Integer> ports = new ArrayList<>();
		List<ServerProcess> nodes = new ArrayList<>();
		ThrowawayRedisCluster cluster = new ThrowawayRedisCluster(ports, nodes);
		try {
			for (int i = 0; i < MASTERS; i++) {
				int port = ServerProcess.freePort();
				Path nodeDir = dir.toAbsolutePath().resolve("node-" + port);
				Files.createDirectories(nodeDir);
				List<String> command = List.of("redis-server", "--port", Integer.toString(port), "--bind",
						"127.0.0.1", "--cluster-enabled", "yes", "--cluster-port",
						Integer.toString(ServerProcess.freePort()), "--cluster-config-file", "nodes.conf",
						"--cluster-node-timeout", "2000", "--dir", nodeDir.toString(), "--save", "", "--appendonly",
						"no", "--daemonize", "no", "--protected-mode", "no");
				nodes.add(ServerProcess.launch("redis-cluster-node:" + port, command, nodeDir.resolve("redis.log"),
						port, STARTUP));
				ports.add(port);
				cluster.commands.add(command);
				cluster.dirs.add(nodeDir);
			}
			List<String> create = new ArrayList<>(List.of("--cluster", "create"));
			ports.forEach((port) -> create.add("127.0.0.1:" + port));
			create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
			String created = RedisCli.runWithoutServer(STARTUP, create.toArray(String[]::new));
			if (!created.contains("All 16384 slots covered")) {
				throw new IllegalStateException("redis-cli --cluster create failed:\n" + created);
			}
			for (int i = 0; i < MASTERS; i++) {
				int port = ports.get(i);
				nodes.get(i).awaitTrue(STARTUP, () -> {
					String info = RedisCli.run(port, Duration.ofSeconds(5), "CLUSTER", "INFO");
					return info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384")
							&& info.contains("cluster_known_nodes:" + MASTERS);
				}, "serve all 16384 slots");
			}
			return cluster;
		}
		catch (IOException ex) {
			cluster.close();
			throw new UncheckedIOException(ex);
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * Returns the masters' ports on 127.0.0.1.
	 * @return three ports
	 */
	public List<Integer> ports() {
		return List.copyOf(this.ports);
	}

	/**
	 * Opens a started connection factory through Spring Data Redis's cluster configuration (Lettuce), seeded with
	 * every node; call {@code destroy()} when done.
	 * @return the factory
	 */
	public LettuceConnectionFactory connectionFactory() {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				this.ports.stream().map((port) -> "127.0.0.1:" + port).toList());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Runs one command on one node through {@code redis-cli} (without following redirections).
	 * @param port the node's port
	 * @param args the command and its arguments
	 * @return what {@code redis-cli} printed
	 */
	public String cli(int port, String... args) {
		return RedisCli.run(port, Duration.ofSeconds(10), args);
	}

	/**
	 * Returns the port of the master that serves a key's slot, as the cluster itself says.
	 * @param key the key
	 * @return the port
	 */
	public int portOfKey(String key) {
		String slot = cli(this.ports.get(0), "CLUSTER", "KEYSLOT", key);
		for (int port : this.ports) {
			if (ownsSlot(port, Integer.parseInt(slot))) {
				return port;
			}
		}
		throw new IllegalStateException("No master serves slot " + slot + " of " + key);
	}

	private boolean ownsSlot(int port, int slot) {
		// CLUSTER NODES lists, on the "myself" line, the slot ranges this node serves.
		for (String line : cli(port, "CLUSTER", "NODES").split("\n")) {
			if (line.contains("myself")) {
				String[] fields = line.trim().split(" ");
				for (int i = 8; i < fields.length; i++) {
					if (fields[i].startsWith("[")) {
						// A slot migrating or importing, [slot->-node] or [slot-<-node]: still served by its owner.
						continue;
					}
					String[] range = fields[i].split("-");
					int from = Integer.parseInt(range[0]);
					int to = (range.length > 1) ? Integer.parseInt(range[1]) : from;
					if (slot >= from && slot <= to) {
						return true;
					}
				}
			}
		}
		return false;
	}

	/**
	 * Returns a node's ID in the cluster.
	 * @param port the node's port
	 * @return its node ID
	 */
	public String nodeId(int port) {
		return cli(port, "CLUSTER", "MYID").trim();
	}

	/**
	 * Moves the slot of a key, with the keys in it, to another master the way {@code redis-cli --cluster reshard}
	 * does: the target imports and the source migrates the slot, the keys move with {@code MIGRATE} (all of them in
	 * one call, as reshard's pipeline of 10 does for a slot that holds no more), and every master is told the slot's
	 * new owner.
	 * @param key a key of the slot
	 * @param toPort the master that is to serve it
	 * @return how many keys moved
	 */
	public int moveSlotOf(String key, int toPort) {
		int fromPort = portOfKey(key);
		return beginMovingSlotOf(key, toPort, Integer.MAX_VALUE) + finishMovingSlotOf(key, fromPort, toPort);
	}

	/**
	 * Begins moving the slot of a key to another master as {@link #moveSlotOf(String, int)} does, and stops halfway,
	 * as a reshard under way: the target imports and the source migrates the slot, and only the first of its keys
	 * (in {@code CLUSTER GETKEYSINSLOT}'s order) have moved. Meanwhile the source answers a command on several of the
	 * slot's keys, some of them not there, {@code TRYAGAIN}. {@link #finishMovingSlotOf(String, int, int)} ends it.
	 * @param key a key of the slot
	 * @param toPort the master that is to serve it
	 * @param keysToMove how many of the slot's keys to move now, 0 for none
	 * @return how many keys moved
	 */
	public int beginMovingSlotOf(String key, int toPort, int keysToMove) {
		int fromPort = portOfKey(key);
		if (fromPort == toPort) {
			throw new IllegalArgumentException(key + " is served by " + toPort + " already");
		}
		String slot = cli(fromPort, "CLUSTER", "KEYSLOT", key).trim();
		requireOk(cli(toPort, "CLUSTER", "SETSLOT", slot, "IMPORTING", nodeId(fromPort)), "SETSLOT IMPORTING");
		requireOk(cli(fromPort, "CLUSTER", "SETSLOT", slot, "MIGRATING", nodeId(toPort)), "SETSLOT MIGRATING");
		return migrateKeys(slot, fromPort, toPort, keysToMove);
	}

	/**
	 * Ends a move that {@link #beginMovingSlotOf(String, int, int)} began: the keys left move, and every master is
	 * told the slot's new owner.
	 * @param key a key of the slot
	 * @param fromPort the master that served it
	 * @param toPort the master that is to serve it
	 * @return how many keys moved now
	 */
	public int finishMovingSlotOf(String key, int fromPort, int toPort) {
		String slot = cli(fromPort, "CLUSTER", "KEYSLOT", key).trim();
		String toId = nodeId(toPort);
		int moved = migrateKeys(slot, fromPort, toPort, Integer.MAX_VALUE);
		requireOk(cli(toPort, "CLUSTER", "SETSLOT", slot, "NODE", toId), "SETSLOT NODE on the target");
		requireOk(cli(fromPort, "CLUSTER", "SETSLOT", slot, "NODE", toId), "SETSLOT NODE on the source");
		for (int port : this.ports) {
			if (port != fromPort && port != toPort) {
				requireOk(cli(port, "CLUSTER", "SETSLOT", slot, "NODE", toId), "SETSLOT NODE");
			}
		}
		return moved;
	}

	/** Moves up to {@code limit} of a slot's keys from one master to another in one {@code MIGRATE}. */
	private int migrateKeys(String slot, int fromPort, int toPort, int limit) {
		List<String> keys = new ArrayList<>();
		for (String line : cli(fromPort, "CLUSTER", "GETKEYSINSLOT", slot, "1000").split("\n")) {
			if (!line.isBlank() && keys.size() < limit) {
				keys.add(line.trim());
			}
		}
		if (!keys.isEmpty()) {
			List<String> migrate = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(toPort), "", "0",
					"5000", "KEYS"));
			migrate.addAll(keys);
			requireOk(cli(fromPort, migrate.toArray(String[]::new)), "MIGRATE");
		}
		return keys.size();
	}

	private static void requireOk(String reply, String what) {
		if (!"OK".equals(reply.trim())) {
			throw new IllegalStateException(what + " answered: " + reply);
		}
	}

	/**
	 * Returns the running node on a port.
	 * @param port the node's port
	 * @return its process
	 */
	public ServerProcess node(int port) {
		return this.nodes.get(this.ports.indexOf(port));
	}

	/**
	 * Stops a master (SIGTERM; it keeps nothing, as neither snapshots nor an append-only file are written) and starts
	 * it again on the same port with its cluster configuration: it serves the same slots, with none of their keys.
	 * Waits until every node reports all slots served again.
	 * @param port the master's port
	 */
	public void restartEmpty(int port) {
		int index = this.ports.indexOf(port);
		this.nodes.get(index).stop(Duration.ofSeconds(10));
		Path dir = this.dirs.get(index);
		this.nodes.set(index, ServerProcess.launch("redis-cluster-node:" + port, this.commands.get(index),
				dir.resolve("redis.log"), port, STARTUP));
		for (int i = 0; i < this.ports.size(); i++) {
			int each = this.ports.get(i);
			this.nodes.get(i).awaitTrue(STARTUP, () -> {
				String info = RedisCli.run(each, Duration.ofSeconds(5), "CLUSTER", "INFO");
				return info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384");
			}, "serve all 16384 slots again");
		}
	}

	/**
	 * Adds a replica of a master ({@code redis-cli --cluster add-node --cluster-slave}) that never fails over by itself
	 * ({@code cluster-replica-no-failover yes}), so that a test decides when it takes over ({@link #takeOver(int)}),
	 * and waits until it is in sync with its master.
	 * @param masterPort the master's port
	 * @param dir a directory of the test's own for the replica's data and log
	 * @return the replica's port
	 */
	public int addReplica(int masterPort, Path dir) {
		int port = ServerProcess.freePort();
		Path nodeDir = dir.toAbsolutePath().resolve("replica-" + port);
		try {
			Files.createDirectories(nodeDir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<String> command = List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--cluster-enabled", "yes", "--cluster-port", Integer.toString(ServerProcess.freePort()),
				"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000", "--cluster-replica-no-failover",
				"yes", "--dir", nodeDir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
				"--protected-mode", "no");
		ServerProcess replica = ServerProcess.launch("redis-cluster-replica:" + port, command,
				nodeDir.resolve("redis.log"), port, STARTUP);
		this.replicas.put(port, replica);
		String added = RedisCli.runWithoutServer(STARTUP, "--cluster", "add-node", "127.0.0.1:" + port,
				"127.0.0.1:" + masterPort, "--cluster-slave", "--cluster-master-id", nodeId(masterPort));
		if (!added.contains("[OK]")) {
			throw new IllegalStateException("redis-cli --cluster add-node failed:\n" + added);
		}
		replica.awaitTrue(STARTUP, () -> {
			String replication = cli(port, "INFO", "replication");
			return replication.contains("role:slave") && replication.contains("master_port:" + masterPort)
					&& replication.contains("master_link_status:up");
		}, "follow 127.0.0.1:" + masterPort + " in sync");
		return port;
	}

	/**
	 * Has a replica take its master's slots without the master's agreement ({@code CLUSTER FAILOVER TAKEOVER}), as
	 * an operator does once the master is gone, and waits until it serves them and reports the cluster OK.
	 * @param replicaPort the replica's port
	 */
	public void takeOver(int replicaPort) {
		requireOk(cli(replicaPort, "CLUSTER", "FAILOVER", "TAKEOVER"), "CLUSTER FAILOVER TAKEOVER");
		this.replicas.get(replicaPort).awaitTrue(STARTUP, () -> {
			String info = cli(replicaPort, "CLUSTER", "INFO");
			return cli(replicaPort, "INFO", "replication").contains("role:master")
					&& info.contains("cluster_state:ok");
		}, "serve its former master's slots");
	}

	/**
	 * Returns a replica added by {@link #addReplica(int, Path)}.
	 * @param port its port
	 * @return its process
	 */
	public ServerProcess replica(int port) {
		return this.replicas.get(port);
	}

	@Override
	public void close() {
		this.replicas.values().forEach((replica) -> replica.stop(Duration.ofSeconds(10)));
		this.nodes.forEach((node) -> node.stop(Duration.ofSeconds(10)));
	}

	@Override
	public String toString() {
		return "ThrowawayRedisCluster" + this.ports;
	}

}
