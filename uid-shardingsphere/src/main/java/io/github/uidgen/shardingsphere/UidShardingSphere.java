package io.github.uidgen.shardingsphere;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;
import org.apache.shardingsphere.driver.jdbc.core.connection.ShardingSphereConnection;
import org.apache.shardingsphere.driver.jdbc.core.datasource.ShardingSphereDataSource;
import org.apache.shardingsphere.infra.metadata.database.ShardingSphereDatabase;
import org.apache.shardingsphere.sharding.api.config.strategy.sharding.ShardingStrategyConfiguration;
import org.apache.shardingsphere.sharding.rule.ShardingRule;
import org.apache.shardingsphere.sharding.rule.ShardingTable;

/**
 * Binds uid's ShardingSphere algorithms to an application's generator. ShardingSphere creates its algorithms
 * itself, from its YAML and outside any application, and its JDBC driver keeps one data source per URL for the
 * whole JVM; so instead of a static holder that two applications in one JVM would share, each application binds the
 * algorithm instances of its own data sources to its own generator, and unbinds them when it stops.
 *
 * <pre>{@code
 * try (UidShardingSphere.Binding binding = UidShardingSphere.bind(dataSource, uidGenerator, null, "orders")) {
 *     // inserts and queries through dataSource
 * }
 * }</pre>
 *
 * With Spring Boot, uid-shardingsphere's auto-configuration does this for every ShardingSphere {@code DataSource}
 * bean when the application context has started its beans.
 */
public final class UidShardingSphere {

	private static final String URL_PREFIX = "jdbc:shardingsphere:";

	private UidShardingSphere() {
	}

	/**
	 * Returns whether a data source is a ShardingSphere one: a {@code ShardingSphereDataSource}, or a HikariCP pool
	 * on a {@code jdbc:shardingsphere:} URL. Opens no connection.
	 * @param dataSource the data source
	 * @return whether it is ShardingSphere's
	 * @throws SQLException when the data source cannot be unwrapped
	 */
	public static boolean isShardingSphere(DataSource dataSource) throws SQLException {
		if (dataSource.isWrapperFor(ShardingSphereDataSource.class)) {
			return true;
		}
		if (isPresent("com.zaxxer.hikari.HikariDataSource")
				&& dataSource.isWrapperFor(com.zaxxer.hikari.HikariDataSource.class)) {
			String url = dataSource.unwrap(com.zaxxer.hikari.HikariDataSource.class).getJdbcUrl();
			return url != null && url.startsWith(URL_PREFIX);
		}
		return false;
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, UidShardingSphere.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

	/**
	 * Binds every uid algorithm of a ShardingSphere data source. Opens one connection, which makes ShardingSphere
	 * build the data source from its YAML if it has not yet, so a bad algorithm property fails here.
	 * @param dataSource a ShardingSphere data source (see {@link #isShardingSphere(DataSource)})
	 * @param uidGenerator the application's generator, or {@code null} when it has none
	 * @param segmentGenerators the application's segment generators, or {@code null} when it has none
	 * @param applicationName the application, for messages
	 * @return the binding; close it when the application stops
	 * @throws SQLException when no connection can be opened
	 * @throws IllegalStateException when an algorithm needs what the application lacks, another running
	 * application has bound the data source, or a {@code UID_MOD} algorithm's {@code sharding-count} is not the
	 * number of its targets
	 */
	public static Binding bind(DataSource dataSource, UidGenerator uidGenerator,
			SegmentUidGenerators segmentGenerators, String applicationName) throws SQLException {
		UidSource source = new UidSource(applicationName, uidGenerator, segmentGenerators);
		Map<String, BindableAlgorithm> algorithms = new LinkedHashMap<>();
		try (Connection connection = dataSource.getConnection()) {
			if (!connection.isWrapperFor(ShardingSphereConnection.class)) {
				return new Binding(source, List.of());
			}
			ShardingSphereConnection shardingSphere = connection.unwrap(ShardingSphereConnection.class);
			for (ShardingSphereDatabase database : shardingSphere.getContextManager()
				.getMetaDataContexts()
				.getMetaData()
				.getAllDatabases()) {
				database.getRuleMetaData().findSingleRule(ShardingRule.class).ifPresent((rule) -> {
					rule.getKeyGenerators().forEach((name, algorithm) -> collect(algorithms, name, algorithm));
					rule.getShardingAlgorithms().forEach((name, algorithm) -> collect(algorithms, name, algorithm));
					collect(algorithms, "(default key generator)", rule.getDefaultKeyGenerateAlgorithm());
					checkModTargets(rule);
				});
			}
		}
		List<BindableAlgorithm> bound = new ArrayList<>();
		try {
			algorithms.forEach((name, algorithm) -> {
				algorithm.bind(source, name);
				bound.add(algorithm);
			});
		}
		catch (RuntimeException ex) {
			bound.forEach((algorithm) -> algorithm.unbind(source));
			throw ex;
		}
		return new Binding(source, bound);
	}

	/**
	 * Checks each table's {@code UID_MOD} algorithms against the targets ShardingSphere will hand them: the table's
	 * data sources for its database strategy, the tables of each data source for its table strategy.
	 */
	private static void checkModTargets(ShardingRule rule) {
		for (ShardingTable table : rule.getShardingTables().values()) {
			ShardingStrategyConfiguration databases = rule.getDatabaseShardingStrategyConfiguration(table);
			UidModShardingAlgorithm byDatabase = modAlgorithm(rule, databases);
			if (byDatabase != null) {
				byDatabase.checkTargets(databases.getShardingAlgorithmName(), table.getLogicTable(), "databases",
						table.getActualDataSourceNames());
			}
			ShardingStrategyConfiguration tables = rule.getTableShardingStrategyConfiguration(table);
			UidModShardingAlgorithm byTable = modAlgorithm(rule, tables);
			if (byTable != null) {
				for (String dataSource : table.getActualDataSourceNames()) {
					byTable.checkTargets(tables.getShardingAlgorithmName(), table.getLogicTable(),
							"tables in " + dataSource, table.getActualTableNames(dataSource));
				}
			}
		}
	}

	private static UidModShardingAlgorithm modAlgorithm(ShardingRule rule, ShardingStrategyConfiguration strategy) {
		if (strategy == null || strategy.getShardingAlgorithmName() == null) {
			return null;
		}
		Object algorithm = rule.getShardingAlgorithms().get(strategy.getShardingAlgorithmName());
		return (algorithm instanceof UidModShardingAlgorithm mod) ? mod : null;
	}

	private static void collect(Map<String, BindableAlgorithm> algorithms, String name, Object algorithm) {
		if (algorithm instanceof BindableAlgorithm bindable && !algorithms.containsValue(bindable)) {
			algorithms.put(name, bindable);
		}
	}

	/**
	 * The algorithms one application has bound; closing it unbinds them, so they refuse to work until another
	 * application binds them.
	 */
	public static final class Binding implements AutoCloseable {

		private final UidSource source;

		private final List<BindableAlgorithm> algorithms;

		private Binding(UidSource source, List<BindableAlgorithm> algorithms) {
			this.source = source;
			this.algorithms = List.copyOf(algorithms);
		}

		/**
		 * Returns how many uid algorithms were bound.
		 * @return the count
		 */
		public int size() {
			return this.algorithms.size();
		}

		@Override
		public void close() {
			this.source.close();
			this.algorithms.forEach((algorithm) -> algorithm.unbind(this.source));
		}

	}

}
