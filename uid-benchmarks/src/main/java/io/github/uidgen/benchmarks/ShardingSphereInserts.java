package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.shardingsphere.UidShardingSphere;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * Inserts through ShardingSphere-JDBC 5.5.2 with the {@code UID} key generator against its built-in
 * {@code SNOWFLAKE}: the same two MariaDB databases and four tables (by {@code UID_MOD}), the same multi-row
 * {@code INSERT}s without the key column, from the same threads, the two key generators taking turns round by round.
 * Only the key generator's type differs between the two ShardingSphere data sources.
 */
final class ShardingSphereInserts {

	static final String DEFAULT_URL = "jdbc:mysql://127.0.0.1:3306/?connectTimeout=5000";

	private static final int ROWS_PER_INSERT = 10;

	private ShardingSphereInserts() {
	}

	static void run(String serverUrl, int threads, int seconds, int rounds, PrintStream out) throws Exception {
		String run = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
		List<String> databases = List.of("uid_bench_" + run + "_ds_0", "uid_bench_" + run + "_ds_1");
		try (DefaultUidGenerator generator = DefaultUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build()) {
			createTables(serverUrl, databases);
			DataSource uid = YamlShardingSphereDataSourceFactory
				.createDataSource(yaml(serverUrl, databases, "UID", threads).getBytes(StandardCharsets.UTF_8));
			DataSource snowflake = YamlShardingSphereDataSourceFactory
				.createDataSource(yaml(serverUrl, databases, "SNOWFLAKE", threads).getBytes(StandardCharsets.UTF_8));
			try (UidShardingSphere.Binding uidBinding = UidShardingSphere.bind(uid, generator, null, "the benchmark");
					UidShardingSphere.Binding snowflakeBinding = UidShardingSphere.bind(snowflake, generator, null,
							"the benchmark")) {
				// Warm-up: both share ShardingSphere's code, which the JIT compiles on the first inserts.
				insertFor(uid, threads, 3);
				insertFor(snowflake, threads, 3);
				List<Double> uidRates = new ArrayList<>();
				List<Double> snowflakeRates = new ArrayList<>();
				for (int round = 0; round < rounds; round++) {
					// Who goes first alternates, so a trend in the machine's load favours neither.
					boolean uidFirst = round % 2 == 0;
					truncate(serverUrl, databases);
					(uidFirst ? uidRates : snowflakeRates)
						.add(measure(uidFirst ? uid : snowflake, serverUrl, databases, threads, seconds));
					truncate(serverUrl, databases);
					(uidFirst ? snowflakeRates : uidRates)
						.add(measure(uidFirst ? snowflake : uid, serverUrl, databases, threads, seconds));
				}
				print(out, threads, seconds, rounds, uidRates, snowflakeRates);
			}
			finally {
				((AutoCloseable) uid).close();
				((AutoCloseable) snowflake).close();
			}
		}
		finally {
			drop(serverUrl, databases);
		}
	}

	private static double measure(DataSource dataSource, String serverUrl, List<String> databases, int threads,
			int seconds) throws Exception {
		long start = System.nanoTime();
		long inserted = insertFor(dataSource, threads, seconds);
		double elapsed = (System.nanoTime() - start) / 1e9;
		long stored = count(serverUrl, databases);
		if (stored != inserted) {
			throw new IllegalStateException(inserted + " rows inserted but " + stored + " stored");
		}
		return inserted / elapsed;
	}

	/** Inserts rows from the threads for the given seconds; a duplicate key or any failure ends the benchmark. */
	private static long insertFor(DataSource dataSource, int threads, int seconds) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		StringBuilder sql = new StringBuilder("INSERT INTO t_bench (payload) VALUES (?)");
		sql.append(", (?)".repeat(ROWS_PER_INSERT - 1));
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<Long>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(pool.submit(() -> {
					long rows = 0;
					try (Connection connection = dataSource.getConnection();
							PreparedStatement insert = connection.prepareStatement(sql.toString())) {
						while (System.nanoTime() < deadline) {
							for (int i = 1; i <= ROWS_PER_INSERT; i++) {
								insert.setString(i, "row");
							}
							rows += insert.executeUpdate();
						}
					}
					return rows;
				}));
			}
			long rows = 0;
			for (Future<Long> future : futures) {
				rows += future.get(seconds + 60L, TimeUnit.SECONDS);
			}
			return rows;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static void print(PrintStream out, int threads, int seconds, int rounds, List<Double> uid,
			List<Double> snowflake) {
		out.printf("## Inserts through ShardingSphere-JDBC 5.5.2: key generator UID against SNOWFLAKE%n%n");
		out.printf("MariaDB on 127.0.0.1, 2 databases × 2 tables by UID_MOD, %d threads, multi-row INSERTs of %d rows "
				+ "without the key column, autocommit; %d rounds of %d s per key generator after 3 s of each, "
				+ "taking turns (who goes first alternates), tables emptied before each; UID on the default "
				+ "generator at default settings (ms 41/10/12), SNOWFLAKE at its defaults. Median of the rounds, "
				+ "[lowest, highest]; every inserted row counted back.%n%n",
				threads, ROWS_PER_INSERT, rounds, seconds);
		new MarkdownTable("key generator", "rows/s", "range", "UID / SNOWFLAKE").leftAligned(0)
			.row("`UID` (uid)", String.format("%,.0f", MybatisPlusCost.median(uid)), range(uid),
					MarkdownTable.ratio(MybatisPlusCost.median(uid), MybatisPlusCost.median(snowflake)))
			.row("`SNOWFLAKE` (ShardingSphere)", String.format("%,.0f", MybatisPlusCost.median(snowflake)),
					range(snowflake), "")
			.print(out);
	}

	private static String range(List<Double> values) {
		return String.format("[%,.0f, %,.0f]", values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
				values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
	}

	private static String yaml(String serverUrl, List<String> databases, String keyGenerator, int threads) {
		String base = serverUrl.substring(0, serverUrl.indexOf("/?") + 1);
		String query = serverUrl.substring(serverUrl.indexOf('?'));
		StringBuilder yaml = new StringBuilder("databaseName: uid_bench_" + keyGenerator.toLowerCase() + "\n")
			.append("dataSources:\n");
		for (int i = 0; i < databases.size(); i++) {
			yaml.append("  ds_").append(i).append(":\n")
				.append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
				.append("    driverClassName: com.mysql.cj.jdbc.Driver\n")
				.append("    jdbcUrl: ").append(base).append(databases.get(i)).append(query).append('\n')
				.append("    username: root\n    password: ''\n")
				.append("    maximumPoolSize: ").append(threads + 2).append('\n');
		}
		return yaml.append("""
				rules:
				- !SHARDING
				  tables:
				    t_bench:
				      actualDataNodes: ds_${0..1}.t_bench_${0..1}
				      databaseStrategy:
				        standard: { shardingColumn: id, shardingAlgorithmName: by-db }
				      tableStrategy:
				        standard: { shardingColumn: id, shardingAlgorithmName: by-table }
				      keyGenerateStrategy: { column: id, keyGeneratorName: keys }
				  shardingAlgorithms:
				    by-db:
				      type: UID_MOD
				      props: { sharding-count: 2 }
				    by-table:
				      type: UID_MOD
				      props: { sharding-count: 2, stride: 2 }
				  keyGenerators:
				    keys:
				      type: %s
				""".formatted(keyGenerator)).toString();
	}

	private static void createTables(String serverUrl, List<String> databases) throws SQLException {
		try (Connection connection = DriverManager.getConnection(serverUrl, "root", "");
				Statement statement = connection.createStatement()) {
			for (String database : databases) {
				statement.execute("CREATE DATABASE " + database);
				for (int t = 0; t < 2; t++) {
					statement.execute("CREATE TABLE " + database + ".t_bench_" + t
							+ " (id BIGINT PRIMARY KEY, payload VARCHAR(32) NOT NULL)");
				}
			}
		}
	}

	private static void truncate(String serverUrl, List<String> databases) throws SQLException {
		try (Connection connection = DriverManager.getConnection(serverUrl, "root", "");
				Statement statement = connection.createStatement()) {
			for (String database : databases) {
				for (int t = 0; t < 2; t++) {
					statement.execute("TRUNCATE TABLE " + database + ".t_bench_" + t);
				}
			}
		}
	}

	private static long count(String serverUrl, List<String> databases) throws SQLException {
		long rows = 0;
		try (Connection connection = DriverManager.getConnection(serverUrl, "root", "");
				Statement statement = connection.createStatement()) {
			for (String database : databases) {
				for (int t = 0; t < 2; t++) {
					try (ResultSet result = statement
						.executeQuery("SELECT COUNT(*) FROM " + database + ".t_bench_" + t)) {
						result.next();
						rows += result.getLong(1);
					}
				}
			}
		}
		return rows;
	}

	private static void drop(String serverUrl, List<String> databases) throws SQLException {
		try (Connection connection = DriverManager.getConnection(serverUrl, "root", "");
				Statement statement = connection.createStatement()) {
			for (String database : databases) {
				statement.execute("DROP DATABASE IF EXISTS " + database);
			}
		}
	}

}
