package io.github.uidgen.autoconfigure;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfigMXBean;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.jdbc.DataSourceUnwrapper;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Connections to the database of a HikariCP pool without the pool, which the db assigner opens for its calls while
 * the pool cannot hand out connections: HikariCP retries connecting during an outage with a back-off that grows to
 * 5 s and cannot be configured, so the pool's first connection after an outage may come 5 s after the database
 * answers again. They come from the pool's own target data source when it was given one, else from the driver data
 * source HikariCP itself builds from the URL, the driver class, the data-source properties and the credentials; each
 * gets the pool's catalog, schema and connection init SQL, as the pool's connections do, so that a call reaches the
 * same table either way. None for a pool configured by data-source class name or through a credentials provider: its
 * calls wait for the pool, as with any other pool. The login timeout is left alone: a driver data source's is
 * {@code DriverManager}'s, which is global.
 */
final class HikariDirectConnections extends DelegatingDataSource {

	private static final Logger logger = LoggerFactory.getLogger(HikariDirectConnections.class);

	private final String username;

	private final String password;

	private final String catalog;

	private final String schema;

	private final String initSql;

	private HikariDirectConnections(DataSource target, HikariDataSource pool, boolean withCredentials) {
		super(target);
		this.username = withCredentials ? pool.getUsername() : null;
		this.password = withCredentials ? pool.getPassword() : null;
		this.catalog = pool.getCatalog();
		this.schema = pool.getSchema();
		this.initSql = pool.getConnectionInitSql();
	}

	/**
	 * Returns connections to the database of a pool without the pool.
	 * @param dataSource the data source the assigner uses
	 * @return the connections, or {@code null} when it is not a HikariCP pool or one of those left alone
	 */
	static DataSource of(DataSource dataSource) {
		HikariDataSource pool = DataSourceUnwrapper.unwrap(dataSource, HikariConfigMXBean.class,
				HikariDataSource.class);
		if (pool == null || pool.getCredentialsProvider() != null || pool.getCredentialsProviderClassName() != null) {
			return null;
		}
		if (pool.getDataSource() != null) {
			// Hikari asks its target with the credentials when a user name is set, without them otherwise.
			return new HikariDirectConnections(pool.getDataSource(), pool, pool.getUsername() != null);
		}
		if (pool.getJdbcUrl() == null) {
			return null;
		}
		try {
			return new HikariDirectConnections(new DriverDataSource(pool.getJdbcUrl(), pool.getDriverClassName(),
					pool.getDataSourceProperties(), pool.getUsername(), pool.getPassword()), pool, false);
		}
		catch (RuntimeException ex) {
			logger.warn("uid's db assigner waits for the pool's connections during a database outage: no "
					+ "connection without the pool could be set up for {} ({})", pool.getJdbcUrl(), ex.toString());
			return null;
		}
	}

	@Override
	public Connection getConnection() throws SQLException {
		DataSource target = obtainTargetDataSource();
		Connection connection = (this.username != null) ? target.getConnection(this.username, this.password)
				: target.getConnection();
		try {
			if (this.catalog != null) {
				connection.setCatalog(this.catalog);
			}
			if (this.schema != null) {
				connection.setSchema(this.schema);
			}
			if (this.initSql != null) {
				try (Statement statement = connection.createStatement()) {
					statement.execute(this.initSql);
				}
			}
		}
		catch (SQLException | RuntimeException ex) {
			connection.close();
			throw ex;
		}
		return connection;
	}

	@Override
	public String toString() {
		return "HikariDirectConnections[" + obtainTargetDataSource() + "]";
	}

}
