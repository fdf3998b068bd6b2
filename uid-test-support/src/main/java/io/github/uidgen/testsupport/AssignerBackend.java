package io.github.uidgen.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.zaxxer.hikari.HikariDataSource;
import io.github.uidgen.testsupport.TestDatabases.Database;
import io.github.uidgen.worker.StaticWorkerIdAssigner;
import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerIdAssigner;
import io.github.uidgen.worker.jdbc.DisposableWorkerIdAssigner;
import io.github.uidgen.worker.jdbc.JdbcLeaseWorkerIdAssigner;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import io.github.uidgen.worker.zookeeper.ZookeeperWorkerIdAssigner;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One real store behind assigners, with a table or namespace of its own, so generator tests can run the same
 * scenario on every kind of assigner.
 */
public abstract class AssignerBackend implements AutoCloseable {

	private final String name;

	private final Duration leaseDuration;

	AssignerBackend(String name, Duration leaseDuration) {
		this.name = name;
		this.leaseDuration = leaseDuration;
	}

	/**
	 * Creates an assigner as a (re)started instance would.
	 * @param instanceId the instance's identity, the same after a restart
	 * @return the assigner
	 */
	public abstract WorkerIdAssigner newAssigner(String instanceId);

	/**
	 * Does what the operating system does for a killed process; nothing for stores that only forget a holder when
	 * its lease expires.
	 * @param assigner the crashed instance's assigner
	 * @param workerId its worker ID
	 */
	public void afterCrash(WorkerIdAssigner assigner, long workerId) {
	}

	/**
	 * Returns how long a crashed holder keeps its worker ID.
	 * @return the lease duration, zero without leases
	 */
	public Duration leaseDuration() {
		return this.leaseDuration;
	}

	@Override
	public abstract void close();

	@Override
	public String toString() {
		return this.name;
	}

	/**
	 * A static worker ID with its state file in a folder.
	 * @param folder where the state file goes
	 * @param workerId the configured worker ID
	 * @return the backend
	 */
	public static AssignerBackend staticFile(Path folder, long workerId) {
		return new AssignerBackend("static", Duration.ZERO) {

			@Override
			public WorkerIdAssigner newAssigner(String instanceId) {
				return new StaticWorkerIdAssigner(workerId, folder.resolve("worker-" + workerId + ".state"));
			}

			@Override
			public void afterCrash(WorkerIdAssigner assigner, long crashedWorkerId) {
				// The process is gone, so is its file lock; releasing without a mark writes nothing.
				assigner.release(crashedWorkerId, WorkerAssignment.NO_MARK);
			}

			@Override
			public void close() {
			}

		};
	}

	/**
	 * A static worker ID with backup worker IDs, their state files in a temporary folder of their own.
	 * @param workerId the configured worker ID
	 * @param backupIds the backup worker IDs
	 * @return the backend
	 */
	public static AssignerBackend staticWithBackups(long workerId, List<Long> backupIds) {
		Path folder;
		try {
			folder = java.nio.file.Files.createTempDirectory("uid-static-backups");
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		return new AssignerBackend("static-with-backups", Duration.ZERO) {

			@Override
			public WorkerIdAssigner newAssigner(String instanceId) {
				return new StaticWorkerIdAssigner(workerId, folder.resolve("worker-" + workerId + ".state"), backupIds);
			}

			@Override
			public void afterCrash(WorkerIdAssigner assigner, long crashedWorkerId) {
				// The process is gone, so are its file locks; releasing without a mark writes nothing.
				assigner.release(workerId, WorkerAssignment.NO_MARK);
				backupIds.forEach((id) -> assigner.release(id, WorkerAssignment.NO_MARK));
			}

			@Override
			public void close() {
				try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(folder)) {
					files.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
				}
				catch (java.io.IOException ex) {
					// A temporary folder left behind.
				}
			}

		};
	}

	/**
	 * The database lease assigner on a table of its own.
	 * @param database the server
	 * @param leaseDuration the lease duration
	 * @return the backend
	 */
	public static AssignerBackend jdbcLease(Database database, Duration leaseDuration) {
		HikariDataSource dataSource = database.open();
		String table = TestDatabases.uniqueTable("uid_gen_lease");
		// The tables are made first, by an assigner at the default lease: a DDL, which the server writes to disk, ran
		// past the round-trip bound of a 2 s lease (a third of it) on a machine busy with a parallel build.
		JdbcLeaseWorkerIdAssigner.builder(dataSource)
			.leaseTable(table)
			.instanceId("prepare")
			.initializeSchema(true)
			.build()
			.fleet()
			.orElseThrow()
			.read(1);
		return new AssignerBackend("db-lease-" + database.name().toLowerCase(), leaseDuration) {

			@Override
			public WorkerIdAssigner newAssigner(String instanceId) {
				return JdbcLeaseWorkerIdAssigner.builder(dataSource)
					.leaseTable(table)
					.leaseDuration(leaseDuration)
					.heartbeatInterval(leaseDuration.dividedBy(4))
					.instanceId(instanceId)
					.initializeSchema(true)
					.build();
			}

			@Override
			public void close() {
				TestDatabases.dropTable(dataSource, table);
				dataSource.close();
			}

		};
	}

	/**
	 * The database disposable assigner on a table of its own.
	 * @param database the server
	 * @return the backend
	 */
	public static AssignerBackend jdbcDisposable(Database database) {
		HikariDataSource dataSource = database.open();
		String table = TestDatabases.uniqueTable("uid_gen_disposable");
		return new AssignerBackend("db-disposable-" + database.name().toLowerCase(), Duration.ZERO) {

			@Override
			public WorkerIdAssigner newAssigner(String instanceId) {
				return DisposableWorkerIdAssigner.builder(dataSource).workerNodeTable(table).initializeSchema(true).build();
			}

			@Override
			public void close() {
				TestDatabases.dropTable(dataSource, table);
				dataSource.close();
			}

		};
	}

	/**
	 * The Redis assigner on a namespace of its own.
	 * @param leaseDuration the lease duration
	 * @return the backend
	 */
	public static AssignerBackend redis(Duration leaseDuration) {
		LettuceConnectionFactory factory = TestRedis.connectionFactory();
		String namespace = TestRedis.uniqueNamespace("gen");
		String hashTag = "{uid-test:" + namespace + "}";
		TestRedis.markNewRegistry(factory, hashTag);
		return new AssignerBackend("redis", leaseDuration) {

			@Override
			public WorkerIdAssigner newAssigner(String instanceId) {
				return RedisWorkerIdAssigner.builder(factory)
					.keyPrefix("uid-test")
					.namespace(namespace)
					.leaseDuration(leaseDuration)
					.heartbeatInterval(leaseDuration.dividedBy(4))
					.instanceId(instanceId)
					.build();
			}

			@Override
			public void close() {
				TestRedis.wipe(factory, hashTag);
				factory.destroy();
			}

		};
	}

	/**
	 * The ZooKeeper assigner on a server of its own, every instance with a client (so a session) of its own.
	 * @param leaseDuration the lease duration
	 * @return the backend
	 */
	public static AssignerBackend zookeeper(Duration leaseDuration) {
		ThrowawayZooKeeper zooKeeper = ThrowawayZooKeeper.start();
		List<CuratorFramework> clients = new CopyOnWriteArrayList<>();
		return new AssignerBackend("zookeeper", leaseDuration) {

			@Override
			public WorkerIdAssigner newAssigner(String instanceId) {
				CuratorFramework client = zooKeeper.newClient(Duration.ofSeconds(30));
				clients.add(client);
				return ZookeeperWorkerIdAssigner.builder(client)
					.leaseDuration(leaseDuration)
					.heartbeatInterval(leaseDuration.dividedBy(4))
					.instanceId(instanceId)
					.build();
			}

			@Override
			public void close() {
				clients.forEach(CuratorFramework::close);
				zooKeeper.close();
			}

		};
	}

}
